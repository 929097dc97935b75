#!/usr/bin/env bash
# Derive pipelines/speaker/params/given-names.json: the first names of the 1990 US Census lists that
# Debian's libtext-names-perl ships (Text::Names, male and female, prevalence in percent of people),
# kept only when pocketsphinx can output them (the word is in its cmudict). Rerun after either changes.
set -euo pipefail
cd "$(dirname "$0")/.."
DICT=${PARLEY_CMUDICT:-/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict}
OUT=pipelines/speaker/params/given-names.json
perl -MText::Names -e 1 2>/dev/null || { echo "given-names: install the Debian package libtext-names-perl" >&2; exit 1; }
[ -f "$DICT" ] || { echo "given-names: $DICT missing (Debian package pocketsphinx-en-us)" >&2; exit 1; }
DICT="$DICT" perl -MText::Names -e '
  Text::Names::prepareCommonNames();
  my %vocab;
  open(my $d, "<", $ENV{DICT}) or die;
  while (<$d>) { my ($w) = split; $w =~ s/\(\d+\)$//; $vocab{lc $w} = 1; }
  my %all = map { $_ => 1 } (keys %Text::Names::commonMaleFirstnames, keys %Text::Names::commonFemaleFirstnames);
  my @rows;
  for my $n (sort keys %all) {
    my $w = lc $n;
    next unless $w =~ /^[a-z][a-z\x27-]+$/ && $vocab{$w};
    push @rows, sprintf("\"%s\":%.4f", $w, Text::Names::firstnamePrevalence($n));
  }
  my $v = $Text::Names::VERSION;
  print "{\"source\":\"1990 US Census first names via Text::Names $v (Debian libtext-names-perl), kept when in pocketsphinx cmudict\",\n";
  print "\"unit\":\"percent of people (mean of male and female lists)\",\n\"names\":{\n", join(",\n", @rows), "\n}}\n";
' > "$OUT"
echo "given-names: wrote $(grep -c '^"[a-z'\''-]*":[0-9]' "$OUT") names to $OUT" >&2
