#!/usr/bin/env bash
# Derive pipelines/speaker/params/given-names.json: the first names of the 1990 US Census lists that
# Debian's libtext-names-perl ships (Text::Names, male and female, prevalence in percent of people).
# All of them, not only those pocketsphinx can output (in its cmudict): Moonshine writes names cmudict lacks
# ("Caitlyn", "Graciela"), and a census name cmudict lacks is no ordinary English word. Rerun after it changes.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=pipelines/speaker/params/given-names.json
perl -MText::Names -e 1 2>/dev/null || { echo "given-names: install the Debian package libtext-names-perl" >&2; exit 1; }
perl -MText::Names -e '
  Text::Names::prepareCommonNames();
  my %all = map { $_ => 1 } (keys %Text::Names::commonMaleFirstnames, keys %Text::Names::commonFemaleFirstnames);
  my @rows;
  for my $n (sort keys %all) {
    my $w = lc $n;
    next unless $w =~ /^[a-z][a-z\x27-]+$/;
    push @rows, sprintf("\"%s\":%.4f", $w, Text::Names::firstnamePrevalence($n));
  }
  my $v = $Text::Names::VERSION;
  print "{\"source\":\"1990 US Census first names via Text::Names $v (Debian libtext-names-perl)\",\n";
  print "\"unit\":\"percent of people (mean of male and female lists)\",\n\"names\":{\n", join(",\n", @rows), "\n}}\n";
' > "$OUT"
echo "given-names: wrote $(grep -c '^"[a-z'\''-]*":[0-9]' "$OUT") names to $OUT" >&2
