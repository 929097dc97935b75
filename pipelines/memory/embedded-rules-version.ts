/**
 * Prompt-free rule set version, recorded on every fact as `embedded-rules/<n>`: raise it when the rules change
 * what they extract, so facts of different rule sets can be told apart. 3: plans said with "we", obligations,
 * plan objects matched by WordNet. 4: farewells and leave-takings are no plans, plans and choices told about
 * someone else carry `reportedBy`, maxims said with "should" stay open. 5: plan objects name the people an action
 * is for or whose the thing is apart from what it is about ("my sister's drill", "to my sister"), read two objects
 * ("write my grandmother a letter") and phrasal verbs ("gave the drill back"); coordinated people ("Mum and Dad…")
 * and a participant's possessive ("Lena's parents…") are told about someone else. 6: a month or weekday in a sentence
 * told of the past ("we went camping in May", "I called her on Tuesday") is dated behind, not ahead; a phrase that
 * names only a year ("last year", "four years ago") dates the year, not a made-up day; one person addressed as "you"
 * takes a third-person verb ("glad you like it" -> "glad Ben likes it", "you are" -> "Ben is"), and "I haven't" reads
 * "Lena hasn't". 7: "my own" names the speaker
 * among a plan object's people, a noun compound's last noun tagged a verb is its head ("the kitchen tap"), an irregular
 * past tagged a noun is the verb ("we redid"), an obligation on a named owner's thing is a plan ("Grandma's
 * prescription"), "won't be …ing" cancels and "dropped the keys off" does not; others' acts on a new thing ("my aunt and
 * uncle bought an electric car") and alternatives they plan ("…drive instead") carry `reportedBy`; "my nephew and I…"
 * names the nephew among the people, and "Lena and her brother…" (said of a participant) is Lena's "my brother and
 * I…"; plan objects say which one a compound or an "in / on / of" phrase names (`which`). 8: introductions said on the phone
 * ("this is Priya speaking", "Priya here"), small talk that is no memory ("I'm sorry about that", "I'll remember that",
 * going to bed), days of the month ("on the 15th"), "for the rest of the month", dated arrangements of someone else's
 * ("an engineer can come on…") and "we're planning a party on…" are plans, statements after several opening words;
 * "I'll order it" takes what it orders from the turn before ("can you order a cake?"). 9: "did" before an object is
 * the verb ("I did my tax return myself"), an irregular past between people and an object is too ("my parents redid the
 * patio"), people paid for a service ("to my accountant") are people an action is for, "the people next door" are told about, a date word before a noun
 * says which one ("the evening course"), "my aunt's" as one word is the aunt's; "my own" stays "Lena's own", "myself" reads
 * "themselves", "at the weekend" reads "on Saturday …". 10: "we", "us" and "our" told to
 * one person take the listener in only when the sentence says so (a plan, "let's", "we both", "since we last talked");
 * else they are the speaker's own people ("Melanie and others went camping", "Melanie's family trip").
 * 11: running the meeting ("let's keep it
 * quick") is no memory; statements and events after "Heads up,", "Also,", "Yes, the…" or a time ("Tomorrow morning I'm…"),
 * with a question tagged on, or told of "he / she / they"; "Hi, it's Sofia Marin" names the speaker; "I'm out on Thursday
 * and Friday" ends after Friday; "it was X after all", with no negation, withdraws nothing; "I'm still stuck" is a state,
 * not an action told as done. 12: "won't need", "don't need to", "given up on" and a negative imperative ("don't do the
 * MOT") cancel, a denied cancelling ("still haven't cancelled") does not; "has been moved to" reschedules; "up and
 * running" is done; a cancellation or a reschedule is read from its own clause; a plan naming its thing by "it" / "her"
 * is done by the same action told as done; "the French course" / "the course in Spanish" say which one; "enrol" is
 * "enroll", "have a word with" is "spoke to"; "the couple across the road" are people. 13: "I haven't got round to
 * cancelling…", "I haven't managed to cancel…" and "I forgot to cancel…" cancel nothing. 14: a report before a plan
 * clause is a sentence of its own and the plan's "it" / "her" names its thing or person ("The plumber sent me a quote,
 * I'll forward it…"); two joined plan actions are two plans; an event told for a day ("my dentist appointment is on
 * Tuesday", "I've got a match on Saturday": "have got" is now) is settled by a reschedule or a cancellation of the same
 * one; "let's do Saturday instead" moves the latest dated plan of the day; "the plan is to…" is a plan; "actually, I
 * won't order…" cancels; a return trip is not the outbound one; "the class in watercolour" says which one; "had a chat
 * with", "get someone to fix", "the printer is up and running" (about its subject). 15: events whose subject
 * opens with "his / her…" (a person, or a thing of someone named just before), "your" + a person, or is a noun phrase
 * past five words, "X's off / at…", a time before the subject ("Since yesterday the car…"), a first-person clause after
 * an act, a guess or "since we last spoke" ("Calling you back as promised, we have…"), asking leave for someone else
 * with a time ("Can Maisie sleep over on Saturday?"); a statement opened by "he / his…" names the person the sentences
 * before opened with (a name: a participant's, one written inside a sentence, or no WordNet word); well-wishing ("I hope it heals quickly"), "see you Saturday" and "this pasta is lovely"
 * are no memory; a date is past or to come by its own clause, "now" stays a word; a "we" plan or decision told to one
 * person takes the listener in only as `inclusiveWe` or a time to come says ("we decided to do doggy playdates" is the
 * speaker's own people's, and not shared). 16: a duration told in the perfect
 * or the past ("I've been vegetarian for two years", "I lived there for five years") ends no state ahead; "can't" is no
 * past tense (its date lies ahead); a bare "the 15th" told of the past lies behind. 17: a fact's `eventTime` is also
 * the start of a state told in the perfect ("I've had them for three years now") or, for an act told as just done ("I
 * just got accepted"), the day it was said. 18: "was" is a past form (a day named with it lies behind: "I was in Paris
 * on Friday"); a participle after a present "be" is a state now ("the road is closed for two weeks", "I'm tied up for
 * a week" end ahead); "until the 9th" ends a state; an "until" told of the past ("I was off until Monday") ends none.
 * 19: a sentence told with its "I" left out and opened by a past form ("Paid Marcus back for the tickets", "Spoke to
 * Gran this morning") is read with the "I"; an outcome naming the same thing as an open fact by a proper name and a
 * shared word settles it whatever the verbs (`sameNamedThing` in decide.ts).
 * 20: "this week" is the week holding the day it was said (told of the past it was read as last week); "Tues" and "Weds"
 * are read as weekdays ("last Tues", "on Weds"), and a bare abbreviated weekday ("on Wed.") as a full one.
 * 21: the speaker's name is found as a word whatever the case of its first letter: an unnamed speaker's later
 * possessives read "their" ("…should buy their bread", not "…an unnamed speaker's bread"), "Al" is not found in "Also";
 * "I" becomes "An unnamed speaker" / "The caller" with a capital only where a sentence starts.
 * 22: one clause splitter for dates (`clauseAround`): a date's tense and a duration's are read from the clause holding it,
 * broken at joining words too ("Your mum called and she wants us over on Sunday": Sunday to come), or from the whole
 * sentence when that clause has no verb ("For two years, I lived there" ends nothing ahead); a day or a date after "for"
 * is when, not how long ("my flight is booked for Friday", "reserved for tomorrow": dated, with no end of their own);
 * a sentence with its "I" left out is read with it only when its verb names a thing, place, person or time ("Got it
 * covered", "Agreed, …", "Got your back", "Felt so refreshing" stay as said and give nothing), and a pleasantry opened
 * by a word of feeling that names nothing ("Glad to hear it", "Glad to help, Nate", "Same here") is no memory.
 * 23: life slots read by meaning (a cue lexicon per slot, `lifeSlot` in changes.ts): where one lives after a move ("we're in
 * a little terraced house in Ashby now", "moved into…", "moved back in with my parents", "I'm renting a room in…"; a
 * holiday or a stay is none; "moved out of the flat" alone ends it), a job told as an activity after leaving ("I'm tutoring
 * full time now": a new value, not an ending), a role started or promoted to, a new job at somewhere, notice handed in or
 * redundancy (an ending), a diet taken up ("gone vegetarian", "stopped eating meat"), a taste taken up or dropped ("come
 * round to coffee", "gone off crisps"), an allergy however told ("cats set my allergies off"); a report's later "he / she"
 * is the person reported on; a street stays in a lives_in value ("above the bakery on Carver Street").
 * 24: "twice a week" is a frequency, no date; "a few years back" lies behind (its "when" clause with it); "Thought I'd…",
 * "Heard they're…" (a clause verb, its "I" left out) give a fact; a date that is the subject takes no preposition ("The
 * week of … has been swamped"); notice, resigning, let go, retiring end employer and role; relationship status a slot.
 * 25: a name called at a sentence's start or end is not part of the fact ("Ben, my sister moved to Leeds" → "Dora's sister
 * moved to Leeds", not "Ben, Dora's sister…"); a turn addressed to no one present reads "you" as the person called
 * ("Eve, I'll water your plants" → "Dora will water Eve's plants", not "the listener's").
 * "a weekend yoga class", "my weekend" are no dates; "this past weekend", "over the weekend" read whole.
 * 26: consolidation keeps a stay ("living in Lisbon for a month", a fact with its own end) beside the lasting value of its
 * slot instead of closing it; a lasting value said during a stay of it replaces the stay; a lasting value that replaces a
 * stay replaces the homes it had interrupted too (pipelines/memory/temporary-states.ts).
 * 27: a stay with an end said ("I'm staying in Madrid for two weeks", "I'll be in Berlin until the 20th", "visiting my
 * parents in Ohio this month") is a `staying_in` memory beside the home, not a plan, a promise or a statement; an "until"
 * clause is the end, not the value or the words ("working at Hooli until Friday" → "works at Hooli", `validUntil`);
 * "till June" ends where June begins, "through the end of the year" where the next begins (pipelines/memory/stays.ts).
 * 28: a stay told with "spending" and how long ("I'm spending two weeks in Rome", "we're spending a month in Lisbon") or a
 * season ("spending the summer in Maine", "for the winter": it ends where the next season begins) is a `staying_in`
 * memory with that end; a counted span after "spend" is how long, not a date ("two weeks" is no day in two weeks).
 * 29: a stay at a place named without a capital ("in the Alps", "at my parents' place", "at the beach house", "in the
 * mountains", "on the coast") is a `staying_in` memory; "the weekend" (Saturday to Monday), "over Easter" (Good Friday
 * to the Tuesday after) and "over Christmas" (24 to 27 December) are a stay's span; a stay that starts ahead ("next
 * month I'm in Tokyo for two weeks", "from Monday", the weekend said on a weekday, "I'm in Vienna next week") is a plan
 * ("Sol will be in Tokyo") whose end is counted from its start, not from when it was said (pipelines/memory/stay-span.ts).
 * 30: a stay that starts ahead is, beside its plan, a `staying_in` memory that holds from its start (`validFrom`, later
 * than when it was said) to its end: the derived attribute reads it from then on, and not before (pipelines/memory/stays.ts);
 * a temporary state outside residence left as a plain statement fills the slot of its lasting form: "on a juice cleanse
 * for a few days" `diet`, "working as a lifeguard for two weeks" `occupation`, "temping at a law firm until Friday"
 * `works_at`, "on leave until January" `status`, "X and I are on a break until …" `relationship`
 * (pipelines/memory/temporary-slots.ts).
 * 31: "until the new year", "till Christmas (Eve)", "for / over the holidays" (to 2 January; in summer to 1 September) and
 * "for a few nights" are ends (pipelines/memory/named-ends.ts); "we're on strike" is a `status` memory with no end, and a
 * sport done as a habit ("I swim", "I play tennis on Sundays", "I go running", "I do yoga") a `sport:<activity>`
 * preference (pipelines/memory/standing-slots.ts), a sport for a time ("playing tennis this month") the same kind of slot
 * with its end; "… when I hike" tells when, not a habit.
 * 32: one count table for every counted span (pipelines/memory/spans.ts): "for several nights" is 3 days (as "several"
 * counts a stay's length said ahead), no longer 4; "for eleven / twelve nights" and a stay "for eleven days" (or twelve
 * weeks) are read as the other counts are (before, the night count and the stay's end stopped at ten).
 * 33: a preference held for now with no end ("for now I prefer green tea", "these days I'm drinking decaf", "at the moment
 * I'm into jazz") is a `preference:for_now` memory, one per person, temporary by its nature, beside the lasting
 * preferences it interrupts (all `preference:*` slots one family); "I'm a barista for the holidays" (a job with its end,
 * no "working as") is a temporary `occupation` (pipelines/memory/temporary-slots.ts).
 * 34: a preference with its end said ("This week I'm really into techno", "I prefer tea for the next few days", "I'm
 * reading poetry for a month") is the `preference:for_now` memory with that end; `favourite:*` slots are of the
 * preference family (a favourite is a lasting liking); a lasting liking said again ("I'm back on regular coffee", "I'm
 * drinking black coffee again") ends the value held for now; a job for a time told of a named participant ("Ana is a
 * postwoman for the holidays", "Tom's a lifeguard for the summer", "Ana's working at the bakery until March") is theirs,
 * and "for the holidays" ends a state told of anyone ("my cousin is a postman over the holidays").
 * 35: fewer false memories on ordinary sentences (pipelines/memory/kinds.ts): a job needs a job-holder, the most common
 * WordNet sense of its noun a person by occupation ("I'm a lifeguard for the summer", not "I'm a mess this week", "I'm a
 * zombie until I've had my coffee"; a word WordNet does not list, "barista", as before); a liking held for now or for a
 * time, or said again, needs a likeable kind (a drink or food, music, a book or film kind, a sport, a game, a pastime:
 * "for now I'm drinking decaf", not "for now I like the plan", "I prefer Tuesday for now", "I'm back on the night shift";
 * a capitalised name only when the sentence says it is a show, book or music), and an unlikeable one is a statement; a
 * holiday end ends the sentence's first clause only ("I'm working from home, but over the holidays Mum is here" gives no
 * end); a count past 3660 ("for 100000 nights") and a length past 3660 days end nothing (before, "for 100000000 nights"
 * threw); a liking said again replaces the value held for now and every stored copy of the liking (`alsoReplaces`).
 * 36: each clause's fact ends as its own clause says (pipelines/memory/clause-ends.ts: "I'm working from home, and I'm a
 * postman over the holidays" is a job to the holidays' end; "I'm a postman, and I'm working from home this week" a
 * lasting one); "Italian food", "Thai cuisine" are likeable (a kind word as the head); a word WordNet does not list is no
 * liking when one of it is listened to, read or watched ("I'm listening to a podcast"), still one when liked, drunk,
 * eaten or said bare ("kombucha", "listening to synthwave"); "I'm a model"
 * is a job (a bare word whose commonest sense is an idea, read by its sense that works for a living).
 * 37: a clause is cut only at punctuation, a dash, "and", "but" or "so" ("I'm a lifeguard until the week before school
 * starts" is no job to next week); a clause about "it", "that" or "this" tells the end of the one before ("I'm a barista,
 * and that's until March"); a stay's span ends the stay and facts with no value only ("I'm a teacher, and I'm in Paris
 * for the weekend" is a lasting job); a liking ends as the clause that names its thing, not its verb's polarity.
 * 38: sentences as a recogniser writes them (pipelines/memory/spoken-text.ts): a lower-case "i" is the pronoun ("i guess
 * i start monday" was "Ana guess Ana start…"), fillers, laughs and restarts ("um", "lol", "i i work") are left out; a
 * liking held for now said beside a lasting liking or a job is its own clause's (pipelines/memory/for-now-clauses.ts: "I
 * love jazz, but for now I'm into techno" gave one liking for now, of jazz); a thing pointed at ("I like that idea") is
 * an opinion of the moment, no lasting liking; "I'll probably never…", "I will not…" undertake nothing; "I don't eat meat
 * anymore", "I no longer eat meat" take up a diet instead of withdrawing one, and "no longer" keeps the verb's agreement;
 * a month told of the past without its year lies behind ("we went camping in May", told in December, was next May).
 * 39: a newcomer's trial (pipelines/memory/ahead-from-past.ts): a date in a promise or plan told as past ("Dan promised me
 * he would fix my laptop by Tuesday", "she was going to call on Monday", "by Tuesday") lies ahead, one in a plain past
 * report ("I saw him on Tuesday") or a future that did not happen ("I would have called on Monday") behind; a fact's
 * `eventTime` is its own clause's ("Hi, I'm Dana, and next week I start a new job": the name has no date,
 * clause-dates.ts); a tag said after a sentence ("… on friday ... promise", ", okay?") is no part of it
 * (sentence-tags.ts); "I live in Oslo and I work as a nurse" is two sentences, so the job is kept (fact-clauses.ts);
 * "I don't eat meat much" is a habit, no diet (38's reading ends at "meat", "anymore", "these days" or "now").
 * 40: each clause that ends a job, a home or a diet is a sentence of its own ("I no longer eat meat and I don't work at
 * Google anymore" takes up the diet and ends the employer; fact-clauses.ts); "I'm a nurse and a part-time photographer" is
 * two jobs, the second held beside the first (`occupation:<job>`); "I love this city" likes the place the speaker told
 * they live or stay in, this turn or before (place-here.ts), and with none told stays an opinion of the moment.
 * 41: "I'm a terrible cook and a worse driver", "a pretty bad singer" judge how well one does a thing, no job (kinds.ts
 * `judgesSkill`); a negated clause ended by "now" withdraws what it denies as "anymore" does ("I don't smoke now", "I
 * don't live with my parents now", not "right now" or "for now"), and a withdrawal ends the slot its positive form fills;
 * "I stopped being a lifeguard" withdraws the job; a withdrawn job ends the held job of that name, main or beside it
 * (`occupation:<job>`), and no other (decide.ts); "I gave up / packed in / left my job at …" and a firm left said in
 * lower case ("i left google": no given name, no place, no ordinary word) end the employer; a thing to eat or drink or a
 * pastime given up ("I don't drink coffee anymore", "I stopped drinking coffee", "I gave up chocolate") ends its liking;
 * a job ending or a liking given up told as a condition, a maybe, a plan or a denial ("if I gave up my job…", "I might
 * quit my job") ends nothing, and a thing given up with no verb of eating or drinking must be one WordNet lists ("i quit
 * tesco" is a firm left, no liking). Review fixes (41b, same version): a lower-case firm left ends the employer only
 * when it is the one held (`namedOnly`); "my job", not "the job" or "my job interview"; "when / once / almost / the day"
 * end nothing; a job withdrawn by its whole phrase, none held: nothing stored; "now" withdrawals end a held value only.
 * 42: "I'm a…" with a joined "'m" opens a clause of its own ("i'm not a nurse now, i'm a midwife": the nurse ends, the
 * midwife is the job; fact-clauses.ts); the first phrase after "I'm a" that holds a job is the job ("a terrible cook and a
 * nurse"); "we live / we're living in X" is the speaker's home, a state of mind is none ("i live in hope"); "i'm not into
 * football anymore" ends the liking; a habit given up ("i quit vaping last year", "i gave up smoking") is a withdrawal
 * told as done, no employer; a liked span keeps its words ("the week before Christmas"); "quit / cut / split / hurt /
 * shut" after its subject is past, so "i quit tesco in may" said in December is this May; every withdrawal that names a
 * value ends that value only (decide.ts, not only the "now" and lower-case "left" forms).
 * 43: a withdrawal of a named value no one holds is one explicit decision, `NOOP` (stores and ends nothing; the LLM
 * decider may answer it, decide-v5), not an empty `DELETE`, and the extractor marks no fact `namedOnly`; a liked thing is
 * keyed singular wherever it is said (thing-keys.ts: "I love video games" and "i'm not into video games anymore" name
 * `preference:video game`; a liking stored under the plural is the same slot); a month after "quit / cut / split / hurt /
 * shut" with a noun subject ("my sister quit in May", said in March) lies behind; only "last / past / previous" before a
 * time looks back ("the last time I'll see him is Friday", "half past six on Friday" are ahead).
 * 44: unpunctuated speech is cut into its clauses at a subject pronoun after a time phrase or a
 * whole clause ("i live in lisbon now last week i went hiking…", "i moved to porto yesterday i will call…"; not "i think
 * i will", "i know you said", "i told my mother i would"; spoken-clauses.ts); a lower-case turn's attributes are
 * capitalised as its facts ("lives_in: Lisbon"; proper-noun-case.ts); a leading "No," before a name or "the / my…" is a
 * correction, and the statement after it is stored ("No, Dora moved back to Paris."; grammar.ts `withoutCorrectingNo`);
 * "I work at Initech as an engineer" is `works_at` Initech and `occupation` engineer (the title was part of the employer,
 * so leaving Initech ended nothing; changes.ts `employerAndTitle`), and "…, I joined Globex" is a clause of its own.
 * 45: fact text a person would write (text5): a subject named again in a later clause is told with a pronoun ("Ana
 * can't lift heavy things, they hurt their back", "Ana will phone their brother"; fact-names.ts); discourse tags at a
 * clause's edge are left out ("by the way", "you know", "to be honest"…, and "I guess" closing one; discourse-tags.ts); a fact opening with a bare pronoun takes the one person the
 * previous turns name (else kept as said, since review: dropping it lost outcomes), and an opening judgement ("It was great, …") is left out (opening-pronouns.ts);
 * "I like things / stuff" is no liking, and a greeting or farewell with a name ("bye ben") is no persona target.
 * 46 (life5): a month named alone while we are in it is this month ("for two weeks in December" said on 5 December:
 * a stay now to 19 December 2026, not December 2027; "this December" the same; "next December" next year's;
 * month-ahead.ts); a preference said with the alternative turned down keeps its "for now" ("For now I prefer tea, not
 * coffee": the "not" denies no liking) and fills the preferred thing's slot ("I prefer tea to coffee", "…rather than
 * coffee": `preference:tea`; rejected-alternative.ts). Decisions (not extraction) of the same round: an utterance older than the fact it would replace or end
 * is history (said-order.ts), and a cancelled plan ends the stay told with it (cancelled-plans.ts).
 * 47: a withdrawal that opens a sentence ("Scratch that, I won't go to Oslo", "Actually, scrap that, I'll stay in Leeds",
 * unpunctuated "scrap that i won't go") is the withdrawal and then the clause after it, each read on its own; the clause
 * had been lost, and once rules 45 left out "Actually," no fact came of it at all. "Scrap" withdraws as "scratch" does.
 * 48 (text6): fact text leftovers. A possessive of the subject named again before adjectives is a pronoun too ("Ana enjoys
 * their new job", not "…Ana's new job"; fact-names.ts); a joint subject ("Ana and Tom") said again is "they", its
 * possessive "their" ("Ana and Tom will visit their parents"); "they" takes a plural verb ("they also like", not "likes"),
 * and a "they" told as the one person named before a singular one ("Nora loves it there"; verb-agreement.ts); a thing
 * refused ("No coffee for me, thanks", "I'll pass on coffee") is a fact "Ana turned down coffee", not an open promise or
 * nothing; a choice said with what it turns down ("I want tea, not coffee", "I'll have not the fish but the chicken",
 * "Not coffee but tea, please") is the choice ("Ana wants tea") and the thing turned down a fact of its own
 * (turned-down.ts). Decisions of the same round: a stay told in a later utterance of the conversation of a trip, naming
 * no other place, ends when the trip is cancelled (cancelled-plans.ts).
 * Also 48 (fix7b, call-centre speech): a phone greeting or closing ("thanks for calling X", "how can I help you", "is
 * there anything else", "have a nice day") and an apology ("i am sorry james") are no fact (call-phrases.ts); the name after
 * an apology is the unnamed listener's for that turn ("process James's refund"; apology-call.ts); "(yes) my order /
 * account / booking / reference number is four five seven two one" is a profile attribute (`order_number=45721`;
 * identifiers.ts); "I live at twelve Baker Street in Manchester" fills `lives_in` with the town, the fact keeping the
 * address (home-address.ts); a `lives_in` value that does not read as a place ("leave my new", a mishearing) is kept as
 * a statement and fills no slot (heard-places.ts).
 * 49 (rules49): extraction leftovers. A number after "at" before a name or a street word is a house number, no clock time
 * ("we live at 4 Rose Court" was dated tomorrow), and a recurring time ("every weekend", "every Monday", "on Mondays") is
 * a habit kept in the words, no one day (not-dates.ts); a caller's order, booking, ticket or case numbers accumulate, each
 * a slot of its own (`order_number:45721`), and one said to replace them ("my new order number is…", "…is now…", "…has
 * changed to…") replaces those held (identifiers.ts, decide.ts); a liked thing is keyed without its possessive or "new /
 * old" ("I love my new bike": `preference:bike`), and the speaker's own job, work or home liked ("I love my new job") is
 * a statement, no `preference:my new job` slot (thing-keys.ts, embedded-rules.ts); a liking said with "X and I" names
 * both ("Ben and I like hiking": "Ben and Ana like hiking", was "Ana likes hiking"), the listener's liking too when X is
 * the listener; an offer ("Want me to book a table?", "Shall I…", "Would you like me to…") is an open commitment ("Ana
 * offered to book a table"), and a refusal opening the listener's answer ("No thanks", "I'll pass", "I'm good") closes
 * it (offers.ts; "I'll pass" was "Tom will pass"); an opening "he / she" is not given the one person named when the
 * conversation tells them as the other ("my brother Ben", "Ben… he said"), nor, their gender unknown, when the fact tells
 * of both a "he" and a "she" ("She met him…"; pronoun-gender.ts). Also in 49 (fix9, a home robot's family): a plan moved
 * by its time alone ("we're going on Sunday now", "we moved it to Sunday", "it's Sunday, not Saturday") closes the plan
 * told for the other day and is rewritten with the new day (retimed.ts, changes.ts, decide.ts); the assistant's own name
 * (`PARLEY_ASSISTANT_NAMES`: "Robot, we're going…") is no listener and no one of "we" (assistant-names.ts); "we / us" with
 * no one addressed is "Sarah and others"; "Maya's allergic to peanuts" reads "'s" as "is" where no noun follows
 * (contracted-is.ts); "And Maya likes dinosaurs too" is a liking of its own beside the first. Also in 49 (text7, fact
 * wording): a date after "for" takes no "on" ("booked for Friday 27 November 2026"), a part of the day stays ("on the
 * morning of Saturday 5 December 2026"), reflexives stay reflexives ("Tom will order it themself"), and the subject said
 * again as an object reads "them", "everyone" or "themself and Tom" (date-text.ts, pronouns.ts, fact-names.ts).
 * Also in 49 (fix11): a statement recorded as said is at most 300 characters, cut at its last clause bound within them, and
 * one with no bound (an unpunctuated dictation) is not recorded (clause-cap.ts).
 * 50 (rules50): extraction leftovers. The day a booking or an arrangement is for lies ahead whatever the clause's tense
 * ("I booked the table for Friday", said on a Monday, is the coming Friday, was the one before; booked-for.ts); a clock
 * time said with the day stays in the text ("Friday evening at 7pm": "…at 7pm"; a bare "at 4" is left out as before;
 * the event time stays the day's date; clock-time.ts); "Me and Ben like hiking", "Ben and me went…" are read as "Ben and
 * I…" (gave no fact; spoken-text.ts); a thing offered and declined ("Do you want tea?" – "No thanks, I don't drink
 * tea") is "Tom turned down Ana's offer of tea" (offers.ts; was "No thanks, Tom doesn't drink tea"); the speaker said
 * again as an object inside a relative clause is "them" ("moments that bring them and Nate happiness", was "themself";
 * fact-names.ts). Beside the rules: two different common first names of about one length that do not sound alike (Mark
 * and Mary) are no name variants (pipelines/interaction/name-conflict.ts).
 * 51 (calls, calls2; a call-centre newcomer trial): a request belongs to the person asking, not the one asked (the
 * one asked stays its addressee), so a delivery address changed with another agent replaces the old one; a request to
 * deliver or send to a numbered address, and "my (delivery|billing|home) address is (now) …", fill the asker's
 * `<kind>_address` slot (delivery-address.ts); a cancellation that names an order (by number or by the thing ordered)
 * closes the order fact (cancelled-plans.ts, by plan-match.ts's `cancelsOrder`); a spoken opening ("hello this is maria
 * lopez …", "hi, …") is cut off as its own sentence and the rest of the turn read as usual (opening-introduction.ts,
 * spoken-clauses.ts: "please <verb>" opens a clause); an acknowledgement before the listener's name is a vocative ("Done Maria, …"); "<firm>, <name>
 * speaking" is a politeness formula and gives no fact (call-phrases.ts).
 * 52 (t9memory; a home robot's newcomer trial, issue #16 F6, F9): a request to remember addressed to the listener ("please
 * remember that I am allergic to nuts", "don't forget that I'm vegan") is the statement it asks to keep, the speaker's
 * own ("Ben is allergic to nuts"), not "Ben asked Donna to remember…"; a withdrawal asked of the listener, whole ("forget
 * what I just said", "forget I said that", "never mind what I said", "ignore / disregard that"), with a name called
 * unpunctuated ("robot forget what i just said") or "please", withdraws the speaker's last statement as rules 47 does and
 * is no fact (listener-asks.ts); an allergy corrected in one sentence ("I'm not allergic to nuts, it was peanuts", "I'm
 * allergic to peanuts, not nuts") is the allergy told, ending the one denied (`endsSlot`), so the decider replaces it
 * with a link (allergy-correction.ts, changes.ts).
 * 53 (trial10 F5, F6, F7; a weekly team meeting): a "we" said to two or more people is "<speaker> and the group", naming
 * no one member, so erasing one leaves the group's memory (pronouns.ts `weTogether`, joint-plan.ts, fact-names.ts reads it
 * as a joint subject); a meeting's thanks, farewells and steps ("Alright, thanks everyone, see you next week", "let's go
 * through the action items") and a bare reaction ("Hmm, that seems like a lot"; not after someone's question, which it
 * answers: "Okay, that's right") are no memory, and a topic said first
 * goes after a clause that takes "about" ("About the budget, I changed my mind": "… changed their mind about the
 * budget"; meeting-phrases.ts); a restart around a filler ("I, uh, I") is one word, "I told you, you should go" keeps
 * both (spoken-text.ts); a request's "your"
 * is the one asked's ("asked Chidi to hand her their notes", not "…her Chidi's notes"; embedded-rules.ts). Beside the
 * rules: with three or more people, a turn with no cue for one listener is addressed to everyone else, not to the
 * previous speaker; an answer to a question goes to the asker, past the answerer's own turns and others' backchannels,
 * and a question anywhere in the asker's turn counts (review12 F6; pipelines/speaker/addressee-inference.ts).
 * 54 (meet1; a team-meeting newcomer trial, trial10 F1, F2): a team's decision, plan or task owner changed by a later
 * statement of anyone, in any session ("we need to move the launch to April 4", "we'll use ClickHouse for analytics
 * instead", "we shouldn't cut marketing at all", "Dana is handling the vendor contract now") replaces the earlier one
 * naming the same topic noun (WordNet-listed, names, generic words and words used as verbs aside) at cosine 0.5 or
 * more; another person's only when both are team facts ("we", "<X> and the group", said to two or more, a task owner)
 * at cosine 0.75 or naming what the change acts on (review12 F1): the statement must say it changes something
 * ("instead", "at all", "<X> is handling … now", a change of mind, "take over", moved to another time; a bare "now" is
 * none; team-decisions.ts), and consolidation weighs the deployment's recent facts for it, not only its subject's
 * (fact-writes.ts); a promise is done by the same act told with a pronoun for its thing ("Ana sent it"; plan-match.ts);
 * "Okay," / "yes," before a name and its verb leaves the name the subject ("Okay, Dana is handling the vendor contract
 * now" gave no fact; grammar.ts).
 * 55 (digits; far-field and phone speech): a number a recogniser writes in words is read as digits where a value is said
 * (spoken-values.ts, graph/spoken-digits.ts): after "number / code / reference (is)" ("the code is four four seven one":
 * "The code is 4471"), after a thing numbered ("cancel order five five two zero": "…order 5520", which closes order 5520;
 * three digits or more, never after the verb: "to order two hundred cups"; "order" and "case" after "the / my / Ben's…"
 * or "cancel / track…"), a phone number after "call / ring / reach … on / at" ("call me on five five five oh one four two" is
 * the speaker's `phone_number` 5550142; identifiers.ts), a house number before its street ("I live at twelve elm street":
 * "…at 12 elm street"; "one hundred and five Hill Road": "105 Hill Road") and a flat's ("flat two b": "flat 2b"); "oh" is
 * zero inside a run of digits, "double / triple X" repeats. Elsewhere words stay words ("I have two kids", a time "at
 * nine thirty Park Lane", "at two Hyde Park Corner", "let's order / in case two hundred…"). A secret given ("my PIN is
 * double seven three one", "the password is hunter2": a value right after "is"; graph/spoken-secrets.ts) gives no fact,
 * no value, and no lexical term of its spoken digits; "the wifi password is on the fridge" is an ordinary sentence.
 * 56 (values; rules 55 follow-ups): a password, passcode or code word given as one plain word that ends its clause and
 * is tagged a noun or a name ("my password is sunshine", "the code word is pineapple") is a secret given, no fact and no
 * value; an adjective, a participle, an adverb, a preposition or a determiner after "is" is no value ("my password is
 * expired", "the password is wrong again / in the email / case sensitive"; graph/spoken-secrets.ts `secretValues`); a stored
 * utterance keeps "[redacted]" in place of a secret's value, itself a secret given when read again. Numbers said with
 * "thousand" are read where a value is said ("order number two thousand and five": 2005; "one hundred thousand":
 * 100000; graph/spoken-digits.ts), elsewhere they stay words ("we had two thousand people").
 * 57 (changes; a bike shop's phone line, trial11 F1, F2): a value of something changed ("change my road bike order to
 * size 56 instead of 54", "my road bike order is now size 56, not 54", "move my repair from Tuesday to Thursday", the
 * agent's "I changed your order to size 56" said to the order's owner) replaces the owner's current fact naming the thing
 * and holding the old value (or, none said, a value of the new one's form), written again with the new value ("Maria
 * would like to order a road bike in size 56"), and keeps one already holding it (value-change.ts, decide.ts); "from
 * Tuesday to Thursday" after a move names both days, the event on the second (relative-date.ts); "I'd like to…" looks
 * ahead ("'d" is "would"; told-tense.ts); a cancellation naming a thing ends the bookings of it (an event told for a day,
 * or "would like to book / order…") with the request it withdraws (cancelled-plans.ts).
 * 58 (teamleft; meet1 / fixteam leftovers): a proposal asked in a meeting of three or more ("Should we use Postgres for
 * the billing service?") and accepted by someone else's bare acceptance ("Yeah, Postgres is fine.", "Sure, sounds good.")
 * is the group's decision, "Ana and the group will use Postgres for the billing service" (accepted-proposal.ts); "yeah"
 * to a statement, or to a question naming nothing to do, is none. A team change weighs the facts on its topic however
 * long ago (nearest vectors and its topic nouns' keywords, not only the 200 newest facts; team-candidates.ts), only
 * those said in a session sharing two people with its own or one its speaker was in; a noun the tagger tags as one is a
 * topic noun though WordNet lacks it ("retro"), a closed-class word ("over") and "group" are none; a change acting on
 * the earlier plan's object ("Cy is taking over the retro now" / "Ben will run the retro") needs no cosine (team-decisions.ts).
 * 59 (trial11 F5; an agent's text on a phone call): an acknowledgement opening a sentence before a comma ("No problem, …",
 * "Done, …", "Sure, …") is no part of the fact, and a listed first name it calls, capitalised before a comma ("Done Tom,
 * …", "No problem, Tom, …") is a vocative whoever holds it: taken out of the fact when the listener is unnamed, named
 * otherwise or unknown (was "Agent Sam done Tom, the listener's repair…"), and, said to no one known, the person called
 * (called-listener.ts `acknowledgedNames`, `withoutAcknowledgement`).
 * 60 (pronoun; trial10 F4): an object "it", "them", "that" or "this" (after a verb or a preposition, no idiom: "make it",
 * "find it hard") is written as the one noun phrase of its number (a thing, not a person nor a time) named by the nearest
 * sentence that names one: the clause before it, the turn's earlier sentences, the turn just before in the same session
 * ("Someone needs to handle the vendor contract." / "I can take it." → "Dana can take the vendor contract"; "take it
 * over" → "take over the vendor contract"); two or more there, one told with a pronoun possessive ("my report") or no
 * determiner ("for analytics"): kept as said (object-pronouns.ts). A statement of a task taken over, with no plan
 * object, is read for what it acts on when weighed against another person's task (team-decisions.ts).
 * 61 (locks2): "next <weekday>" is that day of next week, Monday first, as chrono reads it and as the end of a state
 * ("until next Wednesday", state-end.ts) already was: said on a Monday or Tuesday, "next Wednesday" is in nine or eight
 * days, not two or one; "this / on / coming Wednesday" and a bare "Wednesday" stay the coming one (relative-date.ts,
 * calendar-day.ts `weekdayOfNextWeek`).
 * 62 (review of 56–61): a value change closes only the one fact naming the thing it names (its distinguishing words,
 * "helmet" / "road bike"; a generic "order" or "booking" alone only when one current fact holds the old value) and
 * never reads the old value inside a date nor where it is said twice (value-change.ts); a "yeah" after another
 * person's objection, doubt or other option is no group decision (accepted-proposal.ts); an object pronoun takes a
 * thing only when the whole window names one of its number, never the subject of "is / was + adjective", a place after
 * a preposition, nor after "raise / bring / keep / leave / let" (object-pronouns.ts); a secret's value must end its
 * clause, capitals are none, door / gate / alarm / safe codes and combinations are secrets, and the stored transcript
 * is redacted only for a value holding a digit (graph/spoken-secrets.ts); a secret drops only its own
 * clause and what follows it, the clause before it is still read (`withoutSecretClause`).
 * 63 (secrets; rules 56 / 62 leftovers): a short hedge right after a secret's value ("I think", "I believe", "I guess",
 * "if I remember right / correctly", "or so", "right?") ends its clause as the end of the sentence does: "my PIN is 7731 I
 * think" and "the gate code's 5512 if I remember right" give no fact and are redacted, "Your PIN is four digits long I
 * think" stays an ordinary sentence (graph/spoken-secrets.ts, now the one reader of a secret given, `endsClause`).
 * 64 (trial11 F6): a relation named beside its person opening a sentence ("My wife Maria ordered the road bike", said by
 * Luis) makes that person the subject where they are a participant ("Maria ordered the road bike", about Maria), with
 * the relation kept as the speaker's ("Maria is Luis's wife"); the extraction looks up the participants such a turn
 * names; in all-lower-case text a listed given name that is no verb, adjective, day or month is a relation's name ("my
 * wife maria", not "my brother will"; relation-apposition.ts).
 * 65 (reviewB #8, #9; F4 leftover): a turn said to two people or more that calls one of them by name, opening or closing
 * a sentence ("Tom, I changed your order to size 56"), is said to that one: "you" / "your" are theirs for the whole turn
 * and the facts' addressees are that one, "we" still the room (called-addressee.ts, `Perspective.room`); "Friday next
 * week", "next week on Friday" and "the Friday after next" are the day, as "next Friday" is (weekday-of-week.ts); "I will
 * handle that now", its "that" the task said before, takes the task over from its owner (team-decisions.ts `OWNER_NOW`).
 * 66 (fixchange; trial12 F4–F6, a clinic's front desk): an attribute of the speaker's stated with one value ("my insurance
 * is Humana", "my new insurance is Kaiser", "…is now Kaiser", "I switched my insurance to Kaiser") fills the slot of
 * that attribute (`insurance`, `dental_insurance`), so a later value replaces it in any session; not a list ("my kids
 * are…"), a person ("my son is Leo"), a name, number, address or secret, a plan or a date, an adjective or a denial
 * (stated-attribute.ts); a move to a day with a time ("…to Thursday December 10 at 11 am") replaces the old time with the
 * day ("…at 11am", was "…at 11am at 10am"; value-change.ts `oldClock`); a move naming no old day ("move Leo's checkup to
 * Monday…", "Leo is now booked for Monday…") moves the one current booking naming the thing, else the one naming the person
 * it is for, whoever booked it, said to the mover (value-change.ts `nowBooked`, decide.ts `movedFor`).
 * 67 (trial12 F9, F10, F16): "book / schedule / cancel…" asked bare to someone, after "And" or not, is a request
 * (`BOOKING_ASKED`, embedded-rules.ts); a bare hour after "at" with a day ahead is a clock time by business hours, 7–11 am and 12–6 pm
 * ("on Friday at 10": "…at 10am"; clock-time.ts); a fact told from one clause is dated by the date its words keep where
 * the sentence names others ("…cancel my Thursday cleaning, I will call back next month…": January; `eventOfClause`).
 * 68 (fixmove): a day moved to lies ahead (booked-for.ts); "Saturday at seven" keeps its hour, written into a plan retimed
 * (clock-time.ts, retimed.ts); "Friday week" (weekday-of-week.ts); "X is now with A instead of B" replaces "X is with B" (value-change.ts).
 * 69 (trial12 F17): a self-introduction reads "The speaker's name is X" (was "X introduced themself"); "hi it is X" introduces as "hi it's X" does; an opening "Also" / "Plus" is left out of every fact (discourse-tags.ts `withoutLeadingWords`).
 * 70 (trial12 F11): a thing named by its day ("my Thursday cleaning") is read as "my cleaning on Thursday" (day-named-thing.ts);
 * a dated plan that cancels ("I need to cancel my cleaning on Thursday") fills no `plan:` slot, so it settles what it names;
 * "book / cancel / reschedule…" asked bare after a self-introduction and a comma is the caller's request (opening-introduction.ts).
 * 71 (vocunify): one vocative reader (speaker/vocatives.ts); "Hi Tom.", "Tom!" alone call an addressee, and unpunctuated "ben can you…", "thanks ben …" call a known listener.
 * 72 (fixpast): "I moved to Leeds in May" is past, only a move to a time reads ahead (told-tense.ts `A_TIME`); "X is with A instead of B", names, no "now" (value-change.ts `SELF_INSTEAD`).
 * 73 (fixinstead): a person's own change ("I am now in London instead of Paris") replaces only their present "X is <old>" fact, no past/plan fact nor a person as value (value-change.ts `tellsSelf`); "hi it is X" stops a surname at "calling"/"here"/"out" and takes no adjective uncapitalised (embedded-rules.ts).
 * 74 (fixclock): an hour word is read only alone ("at ten past seven", "at one of his games" kept, clock-time.ts); only moves of a time read "to <day>" ahead, not "to Tuesday's X" (booked-for.ts); "Monday to Friday week" is no "Friday week"; a move to "12 Oak Street", "the night shift", "the end of the road" is to a place (told-tense.ts `TIME_ENDS`).
 * 75 (fixdayname; reviewD M4): a name or a title after a day ("the Sunday Times", "the Friday Maria called") is no thing named by it (day-named-thing.ts).
 * 76 (dates): a clock time next to a day of the month is that day's ("the 12th at 3pm", relative-date.ts); "last May" / "next May" are the May before / after this month (`lastOrNextMonths`); after a possessive a name may qualify a thing named by its day ("my Friday Pilates class", day-named-thing.ts); thanks / "please" closing a sentence are left out (call-phrases.ts `withoutCourtesyTail`); a farewell after a pleasantry with a time is small talk (embedded-rules.ts); "can we do 7 instead?" retimes the day's booking (retimed.ts `reclockedText`).
 * 77 (vocatives): a listener's name closing unpunctuated speech after a word that ends a clause calls them ("see you tomorrow ben"; speaker/vocatives.ts `spokenClosing`), not after a verb, a preposition or "is it"; "I" makes no typed text for `findVocatives`; a self-introduction of the LLM path reads as the rules' (finished-facts.ts).
 * 78 (fixdates; review of rules 76, findings 1–3): "can we do 7 instead?" reads a bare number as an hour only after "do" / "at" / "say" and never as the small hours, and moves only the speaker's (or a shared) booking of the same session (retimed.ts `retellsHour`, decide.ts `ownBooking`); thanks / "please" closing a sentence are left out only after a comma or a request, never after a determiner, "to", "as" or a copula (call-phrases.ts `withoutCourtesyTail`).
 * 79 (retime): "how about / what about 7 instead?" retimes the booking to that hour, a bare count after them none ("how about a table for 2 instead?"); a new hour alone with "instead" ("let's do 7pm instead") is no date of today, it retimes the booking with its day kept (clock-time.ts `hourInstead`, relative-date.ts); a bare hour 7–11 for an evening's outing (a table, dinner, drinks, a party, a show, a concert, a movie, a date night) is the evening (clock-time.ts `bareHour`).
 * 80 (text): "please" / thanks closing "I would like…", "I'd like…", "I want…" is a courtesy (call-phrases.ts `REQUEST`); the "you" of "a thank you", "a thank-you note", "thank you cards", "say thank you" is no listener (pronouns.ts `LISTENER_YOU`, grammar.ts); a name closing typed text after a word that ends a clause calls them ("See you tomorrow Ben."; speaker/vocatives.ts `closesAsCall`, `clauseClosing`, `findVocatives`: a name no one holds only as a listed first name, no day or month, not after "this" / "that").
 * 81 (fixrt; review of rules 79–80): a new hour "instead" after a clause's own action ("I'll pick the kids up at 6 instead") is that clause's own plan, dated today, no retime (clock-time.ts `HOUR_INSTEAD`); an evening's outing is the thing booked, not "table tennis" / "move the tables" / "a meeting about the party" (clock-time.ts `EVENING_THING`, `BUSINESS_THING`); "to give thanks", "a big thank you" are no closing courtesy (call-phrases.ts `THANKS_NOT_TAKEN`); a bare new hour never moves a plan no evening's outing to 9pm or later ("how about 10 instead?" after a dentist at 5: 10am; retimed.ts `reclockedText`).
 * 82 (rules82; issue #16 item 2, review of rules 81): a bare new hour with a new day is read with the booking it moves ("let's do Saturday at 7 instead" after a table at Luigi's at 8pm: 7pm; retimed.ts `bookingsHour`), by the booked thing plan-object.ts reads (`eveningBooked`, from clock-time.ts's one list of evening and business things); "at about 4pm instead" after a clause's own action is its own plan, "for / about" retime only after words that move the booking ("make it for 4pm", "move it to about 4pm"; clock-time.ts `HOUR_INSTEAD`); the booking's own action at a new hour ("let's meet at 7 instead") moves it, its day kept (decide.ts `timeMove`, clock-time.ts `hourAfterAction`); a typed name closing a question after a word that ends a clause calls the listener ("Can you send me the invoice tomorrow Ben?"; speaker/vocatives.ts).
 * 84 (newcomer; a newcomer's trial): a later sentence opening with a call of someone else ("Thanks Liam. Chen, can you review…?") is said to them (later-call.ts `partsCalled`, embedded-extractor.ts); "you are / you're booked|scheduled|confirmed|registered … <day>" is the listener's dated booking (embedded-rules.ts `LISTENER_BOOKED`).
 * 85 (fixrev; review1 finding 6): the thanks a verb takes is only the object of a verb of thanking (give / express / offer / send / extend); "I'd like to speak to Ben thanks", "I'd like to pay thanks" drop the closing thanks again (call-phrases.ts `THANKS_NOT_TAKEN`).
 * 86 (review of rules 81, findings 1–3 and 10): a meeting vetoes the evening only as the thing had ("a meeting about the party"), so "meeting Ana for dinner at 8" and "dinner at 8 to talk about the trip" are 8pm; a film festival is an evening's outing (clock-time.ts `BUSINESS_THING`, `EVENING_THING`); a booking already in the evening (a call at 8pm) moved to a bare "9" is 9pm (retimed.ts `reclockedText`); "can we meet at 7 instead?" retimes the booking (clock-time.ts `HOUR_INSTEAD`).
 * 87 (newfix; issue #16 items 2–4): a day, date or time beside a relation is no relative's name ("I will visit my mother Tuesday" stores no "Tuesday … is Maria's mother"; relation-apposition.ts `isDaySaid`, embedded-rules.ts `relation`); "I moved your appointment with Dr. Patel to Thursday at 3pm" moves the booking it names, a two-word owner and a title read (value-change.ts `OWNER`, `THING`), and a booking told as it stands ("is booked …") is no past act a move skips (decide.ts `pastAct`); "Done, moved to Thursday at 3pm" after the booking was moved there keeps it (retimed.ts `alreadyAt`); "I just moved to Oakland, my new number is 555 0123": a value of one's own told after a comma is a sentence of its own, the number kept beside the move (clause-split.ts `OWN_VALUE_CLAUSE`).
 * 88 (review of rules 82–86, review2): "for <hour> instead" after a verb of rescheduling or the booking itself ("can we reschedule / go / aim for 3pm instead?", "change the appointment for 3pm instead") retimes it, its day kept (clock-time.ts `FOR_AFTER`); a later sentence opening with a name and an aside ("Sarah, my sister, starts…") is no call (later-call.ts `asksAfterName`); convey / relay / return / owe / pass on thanks keep their thanks (call-phrases.ts).
 * 89 (retime; review2 findings 3, 5–7, newcomer): "let's meet at 7 instead" is read from the fact's own sentence, so "Can we do Saturday instead? I'll leave work at 5 instead." moves the booking's day (clock-time.ts `hourAfterAction`); one list of the evening's outings, film festival and date night in it, read by the words and the booked thing (clock-time.ts `EVENING_THINGS`, `eveningHead`; plan-object.ts `eveningBooked`), "meeting Ana for dinner" being the evening; "we could meet at 7 instead" moves the dinner met at (decide.ts `verbSaid`); a slot taken ("Tuesday at 10am works for me") is closed by the booking's move (decide.ts `ACCEPTED`, `movedFor`); a capitalised month right after a relation noun is a name ("my daughter April"; not-dates.ts `isRelativesName`).
 * 90 (newc; newcomer trial items 1, 2): a booking the speaker made for the listener ("I've booked you in with Dr. Patel…", "I booked you a table…", "you're all set for…") is the listener's, told as "you're booked…", its day ahead (listener-booked.ts `withListenerBooked`); item 1: a cancellation told with its reason replaces the plan it calls off, so the reason is kept (decide.ts `calledOff`), and "we planned a trip to Lisbon in May" is a plan for the coming May (planned-ahead.ts `withPlannedAhead`).
 * 93 (revfix; review of rules 87–88, review87 F1–F3, F6, F7, F12): a move naming someone ("your appointment with Dr. Kim") moves only a booking naming them, and none of a fact holding two bookings (decide.ts `movedFor`); the same day at a new hour writes the booking again with it (retimed.ts `retimedText`); "I'll push my call / book a meeting for 4pm instead" retimes no booking (clock-time.ts `FOR_AFTER`); a statement, or a request with a reason after a second comma, after a later call is said to whom it calls (later-call.ts `REQUEST`, `ASIDE_THEN_PREDICATE`); a value of one's own after a clause opening "since / because / when…" is no sentence of its own (clause-split.ts `SUBORDINATE_OPENING`, F4).
 * 94 (lead; review of rules 89, F1–F3): a slot taken at the new time is no booking told again, so "Thursday at 3pm works for me" then "I moved your appointment with Dr. Patel to Thursday at 3pm" moves the Tuesday booking; a move closes a slot taken only when the slot names no other thing ("… works for me for the plumber" stays; decide.ts `slotOf`); "meeting" is the act of meeting only when someone is met for the evening's outing, so "meeting Tom about the party at 10am" moved to "Saturday at 9" is 9am (clock-time.ts `metForEvening`, plan-object.ts `eveningBooked`).
 * 95 (fix93; review of rules 93, rev93 F1, F2): a statement after a later "Name," is said to the name only when they take part and it is not about the name ("Emma, she's seven", "Sarah, my sister had her baby" keep their subject; later-call.ts `ABOUT_THE_NAME`, `saidToTheOneCalled`); a value after a clause opening "since / because / when…" is a sentence of its own again, the act done read without its subordinator ("I started at Google.") and a mere setting ("When you get a chance") dropped (clause-split.ts `ACT_DONE_OPENING`).
 * 96 (lead; review of rules 90 and 93, rev93 F3, F4, F6): "change my appointment / switch my booking for 4pm instead" retimes the booking again, a word that only names a booking taking any possessive (clock-time.ts `FOR_AFTER`); "We had planned a trip…" and "We planned a trip to Lisbon in May and it was amazing" stay past (planned-ahead.ts `PLANNED`, `PAST_TIME`); "as well", "as planned", "as you suggested" are no reason a cancellation keeps (decide.ts `REASON`).
 * 97 (booked; issue #16 items 2–4): a thing booked for a slot ("a table, an appointment, a room, a flight…") on a weekday at an hour names the slot, which lies ahead though the booking is told as past ("I booked a table at Luigi's on Friday at 7pm", "we have a table booked…"; not with no hour, nor "last Friday": booked-for.ts `bookedSlot`); "date night", "game night"… are no night of today and are the evening (clock-time.ts `NIGHT_NAMES`, relative-date.ts `NIGHT_OF_EVENT`); someone met "about" a thing keeps business hours when first said ("meeting Tom about the party on Friday at 10" is 10am; clock-time.ts `BUSINESS_THING`); a thing that runs by day as well (a film festival) is the evening at a bare 7 or 8 only, 9–11 the morning (clock-time.ts `EveningThing.until`, `lastEveningHour`).
 * 98 (listen; issue #16 items 1–4): a booking of the listener told with a time behind or as a mistake ("Sorry, I booked you for the wrong day last week") stays the speaker's past act, "you're all set for" books only a time, someone or a thing ("…for tonight, the car is outside" books nothing) and "booked you both a table" is the listener's booking (listener-booked.ts `PAST_OR_WRONG`, `BOOKED_THING`); a move naming the booking's doctor ("Dr. Patel's appointment") or a doctor's trade ("your dentist appointment") moves the booking with Dr. Patel, one naming another person none (value-change.ts `OWNER` title, `unmetThingTerms`; grammar.ts `DOCTOR_TRADES`; decide.ts `movedFor`); a cancellation closes the plan of the thing it calls off before one that only mentions it (plan-match.ts `cancelsPlanItself`); query: a "still / now" question leads with the fact that closed the plan, answerable (validity.ts `plansClosedBy`, memory-layer.ts `closerLeads`).
 * 99 (people; issue #16 items 2–4): two people's clauses joined by "and" are a sentence each, a bare "the green one" or a count read by the thing of the clause before ("Liam wants the blue logo and Ava wants the green one"; clause-split.ts `peoplesClauses`), kept whole where a part could not stand alone; a name's three-word clause ("Liam likes tea") and a verb the tagger reads as a noun ("Ben lives in Lyon") tell an event (embedded-rules.ts `namedClause`, grammar.ts `toldWithSubject`); a dated plan of a named person or a group naming one is a plan (embedded-rules.ts `NAMED_ARRANGEMENT`); "it" after a later "Name," stands for no person, so "Chen, it's due Friday" is said to Chen (later-call.ts `ABOUT_THE_NAME`).
 * 100 (months; issue #16 items 2, 3): one month reader for the rules, names and short forms (months.ts; the month lists of 19 modules read from it); "I will visit my mother Dec 3" / "Sept. 12" is a date, no relative named Dec (relation-apposition.ts `isDaySaid`); "at 4 December 12th" keeps its hour (not-dates.ts `TIME_AFTER`, which read "dec" but not "december"); "we moved it to Dec 3" retimes (retimed.ts `DAY`); a length of time said bare ("my new commute is an hour", "my shift is eight hours", "the drive is an hour each way", "an hour before the meeting") is a value, no date written in (relative-date.ts `bareLength`).
 * 101 (lead; review of rules 97 and 98): a weekday a booking is for lies ahead though the sentence tells the booking as made in the past ("I booked an appointment yesterday for Friday at 3pm" is the coming Friday; relative-date.ts `WEEKDAY_FIRST`, read forward where `bookedFor`); a month booked for keeps the past reading.
 * 102 (fix97; review rv97 of rules 97, H1–H5): a slot booked on a weekday at an hour lies ahead only when the hour is said with that weekday and nothing after it names the slot ("on Friday for Saturday at 7pm", "on Friday at 6am for our trip": Friday is the act's, behind) and the sentence but the verb of booking is not told of the past ("… and it was amazing", "but I missed it"); "booking" is a verb only after "be" ("I had a booking" books nothing; booked-for.ts `bookedSlot`, `SLOT_VERB`, `FOR_THE_SLOT`); someone met "about" a thing keeps business hours but not when met for or over an outing of the evening, nor "about" an hour or a while ("meeting Tom for dinner about the trip at 8", "about half an hour before the show at 8": 8pm; clock-time.ts `MET_ABOUT`); a bare hour said with no day, gone by as the morning and ahead as the evening, is today's ("We have date night at 8" at 10am: tonight; relative-date.ts `BARE_HOUR_ALONE`).
 * 103 (fix99; review rv99 H1–H4 of rules 99): two people's clauses joined by "and" are split only when each half tells a fact alone as the rules read it ("Liam got promoted and Ava got a new job", "Liam earns 50k and Ava earns 60k" stay whole; clause-split.ts `toldAlone`, grammar.ts `namedClauseShape`), never inside a clause a subordinator opens or a reporting verb holds ("Because Liam was sick and Ava was away, …", "I think Liam likes tea and…": `SUBORDINATOR`, `REPORTING`) nor when the second runs on past a comma, leans on the first by a pronoun or a bare "one" / "none" ("…and Ben visits her every summer", "…and Ava has one at 4pm"), or is a plan whose day only the first says; a bare "a small one" reads the head noun of the object before, not its last noun ("a big house in the city" -> "house", `objectHead`), else the sentence stays whole; a name's dated "will" / "is going to" is no plan, only "plans to / is planning to / intends to / is scheduled to" (embedded-rules.ts `NAMED_ARRANGEMENT`), so "Google will release the new phone on Tuesday" stays a statement a later cancellation closes.
 * 104 (fix100; review rv100 of rules 100, H1, H2): a length counted from a day told ("two weeks from today", "a week from Friday", "six months from March", "a week this Friday") or shifting a thing ("push it back two weeks", "bring it forward a week", "delay it an hour"; a thing named keeps the length as said) is a time again, as before rules 100 (relative-date.ts `FROM_DAY_AFTER`, `SHIFT_BEFORE`, `DAY_AFTER`).
 * 105 (fix98; review rv98 of rules 98, H1, H3, H4): a cancellation told of someone closes the plan of the thing among that person's plans only, one of the speaker among the first plan's owner's ("Sarah cancelled the concert" leaves the speaker's own concert; decide.ts `sameOwner`, `ofPerson`); a booking of the listener is past or a mistake only by the clause that holds it, and "last week's" is no time behind ("I booked you in for Friday at 9am because you missed last week's appointment" books; listener-booked.ts `bookingClause`); "you're all set for tomorrow / today / tonight's show" books that day (`BOOKED_THING`); H2: a time behind said between "booked you (in)" and what it books dates the act, not the slot ("I booked you in yesterday for Friday at 9am" is Ana's booking for the coming Friday; `ACT_TIME`).
 * 106 (cancel; review rv98 H4 remainder): a cancellation of someone's thing closes that person's plan, told of them by name or by a possessive ("Tom's concert got cancelled", "Tom cancelled his concert", Jo's "Your concert got cancelled"), and no booking of another's (decide.ts `ofPerson`, `possessor`, `ownObject`, `aboutPlan`); a cancelling word denied, in a condition or only maybe ("didn't get cancelled", "wasn't cancelled after all", "if the concert gets cancelled", "they might cancel") settles and withdraws nothing (changes.ts `cancellationNotTold`, `settles`; embedded-extractor.ts retraction); "we have date night" reads "date" as the event's noun (plan-tokens.ts `readTokens`); review-cancel H1–H3: only a negation or a maybe in the cancelling verb's own auxiliaries, or an "if / unless / whether / in case" clause holding it, denies it ("I can't believe they cancelled…", "I would like to cancel…" cancel again; changes.ts `cancelNotTold`, `CANCEL_AUX`), a request asked as a question cancels ("Can you cancel my appointment?"; `CANCEL_ASKED`), and a cancellation naming no owner closes as before (decide.ts `ownObject` only with an owner; `possessor` reads ASR's "toms", an opening lower-case name owning a plan is its owner).
 * 107 (mends): a slot booked on a weekday is behind only by a time told of the past (booked-for.ts `TIME_BACK`, read from spoken-clauses.ts `PAST_TIME`), not by "last" or "past" alone ("I booked a table for half past 7 on Friday", "I booked the last flight on Friday at 9pm" are the coming Friday; "last Friday" stays behind); an hour of the clock between "for" or "at" and the weekday is the slot's ("for half past 7 on Friday", "at 7:30pm on Friday"; booked-for.ts `FOR_BEFORE`, `A_DAY`, `ON_WEEKDAY`, clock-time.ts `HOUR_SAID`), and so is one slot told by its place in the day ("the last flight on Friday"; booked-for.ts `SLOT_OF_THE_DAY`; "the last tickets on Friday" stays behind); a negated booking of a slot is no act behind ("I didn't book a table on Friday at 7pm" is dated the coming Friday, no plan; booked-for.ts `SLOT_VERB`); an hour with its minutes and no am / pm is read for a day ahead as "at 9:30" is ("booked you in for 9:30 on Monday" is 9:30am; clock-time.ts `BARE_HOUR`); a party after a possessive is an evening's outing ("Tom's party on Friday at 10" is 10pm; clock-time.ts `POSSESSOR`, `eveningWords`); the listener's booking reads months by months.ts (listener-booked.ts `BOOKED_THING`); after review: "this morning / afternoon" dates the act of booking, not the slot, and "last time", "the previous time / Friday" keep it behind (booked-for.ts `TIME_BACK`); "for half past 7 on Friday" told with an outcome or a time gone by stays behind (booked-for.ts `bookedFor`, `FOR_HOUR_BEFORE`, `slotGone`); "Sam's party planning meeting", "Ana's show and tell" keep business hours (clock-time.ts `BUSINESS_THING`, `EVENING_THINGS`).
 * 108 (dates; ranges and lengths): a range of days ("Dec 3 to Dec 10", "from December 20 to December 27", "from Monday to Wednesday", "between the 20th and the 27th", "from the 14th to the 18th") keeps its last day (relative-date.ts `FoundDate.end`, `rangeEnd`, `ORDINAL_RANGE_END`), written "from … to …" / "between … and …" (date-text.ts `absoluteDates`), the first day the event time and the day after the last the end (`validUntil`, state-end.ts `stateEnd`, as a temporary state's "for a month"); a range under way with no year said is this one, not next year's ("Dec 3 to Dec 10" said on 7 December); one told of the past ends nothing ahead (its clause's tense, state-end.ts `stateEnd`; "I was in Rome between the 3rd and the 10th"), and one read back a year ends that year too ("I was in Rome from May 3 to May 10" said in December: 3 to 10 May 2026, was to 10 May 2027; `rangeEnd`, `yearsBefore`); weekdays of a range said with "next week" are next week's ("next week I'm off Monday to Wednesday": 14 to 16 December, was this week's), or, "next week" said in another clause, the range has no end (`NEXT_WEEK_SAID`); "between the 20th and 27th" and "the 20th to the 27th" are ranges too (`ORDINAL_RANGE_END`, its second "the" optional, "between / from" needed only before "and"); "lasts" / "lasted" is no date ("The workshop lasts eight hours": `LASTS`), and before "until" it is blanked ("The festival lasts until Sunday": until Sunday 13 December, was a range from today; `LASTS_UNTIL`, relative-date.ts `findDates`, state-end.ts `stateEnd`); "in like an hour" and "in an hour or so" are dated as "in an hour" (`IN_LIKE`, `OR_SO_AFTER`).
 * 109 (cancel2; review leftovers of rules 106): an event told as off ("the concert is off", "lunch with Tom is off") cancels, not a light, a person or a day off (changes.ts `EVENT_OFF`, `eventOff`, `settles`); a cancellation naming the plan's own thing or action closes it at a lower cosine ("the concert was called off", "they had to cancel the concert"; decide.ts `cancelNamedCosine`); one told in reported speech is matched by what it names, not the reporting verb ("Tom said his concert got cancelled"; decide.ts `cancelNamesPlan`, `REPORTING`); a calendar word or a place named by the candidates before "'s" is no owner ("Tomorrow's meeting", "Luigi's dinner"; decide.ts `CALENDAR`, `openingName`, `possessor`, `placeNamed`), and a date word's "'s" says which one (plan-tokens.ts `phraseHeads`); a cancellation of someone's thing, or by someone else of a thing not told as the speaker's ("my sister cancelled the gym"), closes none of the speaker's plans but an arrangement naming them or an event for a day ("Tom cancelled lunch", "my landlord cancelled the viewing"; decide.ts `forSpeaker`, `theirs`, `involved`); an "-ing" noun after "'s" and before the clause's verb stays a possessive ("Tom's booking got cancelled"; contracted-is.ts `readAs`, `FINITE`); "the flight" names "flying" by WordNet's meaning (plan-match.ts `namesActionByDerivation` `byMeaning`, `cancelsByObject`); changes.ts `asks` replaces its repeated question test. After review: a cancellation naming a date closes only a plan on it, at the lower cosine only a plan dated so (decide.ts `onPlanDate`, `DATE_NAMED`), and a plan matched at the lower cosine takes no booking of another with it; "the concert is not off after all" withdraws nothing (changes.ts `eventNotOff`); viewing, opera, ballet, recital, session, meetup are events told as off (`EVENT_OFF`).
 * 110 (hours; review leftovers of rules 107): an hour of the clock after "at" before the weekday is a booked slot's, as after "for" ("I booked a table at half past 7 on Friday" is the coming Friday; booked-for.ts `HOUR_BEFORE`, `bookedSlot`); a train, a bus, a ferry are slots ("the last train on Friday"; booked-for.ts `SLOT_THINGS`); an hour with its minutes and no colon ("8.15", "10 30", "nine thirty", "ten fifteen") next to a day is read as "8:15" (clock-time.ts `HOUR_MINUTES`, `HOUR_MINUTES_AT_DAY`, `hourWordsAsNumbers`, `HOUR_SAID`; relative-date.ts `findDates` reads the clock from the words chrono read); "yesterday" / "last night" dates the act of booking, not the slot ("Yesterday I booked a table on Friday at 8pm" is the coming Friday; booked-for.ts `ACT_DAY_BEFORE`); a month's short form before a day's number is a date in any case ("for mar 3", "to Mar. 3"; months.ts `MONTH_DATE_SAID`, booked-for.ts `A_DAY`, `FOR_THE_SLOT`, relative-date.ts `NAMED_DAY`), the verb "march" none ("we will march on Friday"; not-dates.ts `isMarchedTo`); hour words from one list (clock-time.ts `HOUR_WORDS`, from graph/spoken-digits.ts `NUMBER_WORDS`, read by `BARE_HOUR`, `CLOCK_SAID`), and so relative-date.ts `IN_LIKE`'s number words; "last time" / "previous" stay in booked-for.ts `TIME_BACK`, not spoken-clauses.ts `PAST_TIME` (it would cut "i saw him last time i was in london"); after review: a number pair after "<day> for" is a price or a count, no hour, and one after "for" before the day is an hour only in a booking (clock-time.ts `HOUR_MINUTES_AT_DAY`, `BOOKED_FOR`), a count after "<day> at" is no hour's minutes ("at 3 20 people"; `COUNTED_AFTER`), "going to march" is the verb (not-dates.ts `TO_MARCH_BEFORE`), `HOUR_MINUTES_END` and `uncaptured` named, relative-date.ts `IN_LIKE` reads `HOUR_WORDS`.
 * 111 (ranges; review leftovers of rules 108): a stay "from" one weekday to another is one stretch ("I'm in London from Tuesday to Thursday" ends Friday 11 December; relative-date.ts `STAY_FROM`, `rangeEnd`), and so are weekdays said whole with "next week" after them ("I'm off Monday to Wednesday next week": 14 to 16 December with its end, not the week of 7 December; weekday-of-week.ts `RANGE_END`, relative-date.ts `rangeEnd`, `findDates` `week`), a weekly schedule ("I work Monday to Friday") still none; a dash between days ("14-18 December", "14–18 Dec") is a range that ends (state-end.ts `RANGE_WORD`), a sentence's last full stop no part of a date phrase ("14–18 Dec." is written; relative-date.ts `findDates`); a range of days of the month under way is this month's ("I'm away between the 5th and the 10th" said on the 7th: 5 to 10 December, was January; relative-date.ts `ordinalRange`, not when told as to come), and a move between days of the month ("push it from the 20th to the 22nd") dates the plan the second day, the first `movedFrom`, with no end (`ordinalRange`, `MOVE_BEFORE`); retrieval: "last May", "last March" scope the latest such month, one year only (time-scope.ts `LAST_MONTH`); after review: a sentence-final "5 p.m." keeps its stop and its hour (relative-date.ts `ABBREVIATED_END`), "on Sat", "Sat." is Saturday, not the verb "sat" (told-tense.ts `saturday`), a move needs its verb and object straight before "from" ("moving house from the 20th to the 22nd" stays a stay; `MOVE_BEFORE`, `MOVED_THING`), a stay at a place of every week or said "every week / as usual" is a schedule (`STAY_FROM`, `WEEKLY_SAID`), "Thursday to Monday next week" ends in the week after and "Friday to Friday" is a week (`rangeEnd`), hours or scores with a dash ("9–5 tomorrow", "2 - 1") are no range of days (`HOURS_DASH`), and lower-case "last may / march" ending a question is the month (time-scope.ts `lowerMonth`).
 * 112 (ranges2; review leftovers of rules 110–111, issue #16 item 2): weekdays of a range said with "last week" are last week's ("I was off Monday to Wednesday last week": 30 November to 2 December with its end, was 7 December; relative-date.ts `WEEK_SAID`, `ONE_STRETCH`, `rangeEnd`); a dash between weekdays or their short forms ("Monday-Wednesday next week", "Mon–Wed next week") is a range that ends (state-end.ts `WEEKDAY_DASH`, `RANGE_WORD`); weekdays listed before one said with "next week" are next week's too ("Tuesday and Friday next week": 15 and 18 December; weekday-of-week.ts `LISTED_BEFORE`); a range of days of the month is told as its own clause is ("I booked the hotel, it's from the 20th to the 22nd": 20 to 22 December, ends on the 23rd, was November; relative-date.ts `ordinalDay`), and a stay booked "from" one day to another lies ahead as one booked "for" them does ("I've booked the cottage from the 20th to the 22nd", "I booked a room from Friday to Sunday"; not "… and it was lovely"; booked-for.ts `bookedFor`, `FROM_RANGE_BEFORE`, `RANGE_AFTER`); a day ahead in reported speech of what is or will be keeps its hour ("Jo said the movie is on Tuesday at 7:15"; relative-date.ts `REPORTED_AHEAD`); the noun "the march" before a verb or a preposition is no month ("The march is on Saturday"; not-dates.ts `isMarchedTo`, `THE_MARCH_BEFORE`, `THE_MARCH_AFTER`); "two days ago", "a few days ago", "the day before yesterday" date the act of booking, not the slot ("Two days ago I reserved a room on Friday at 3pm" is 11 December; booked-for.ts `ACT_DAY_BEFORE`); retrieval: "since / after last May" searches on to now, "between last March and last May" is March to May 2026 (time-scope.ts `latestMonth`, `LAST_MONTH_ALONE`); after review: "this / that march" is the month again (not-dates.ts `THE_MARCH_BEFORE` without them), a side of its own after "and" ("… and last May") lends the first no reference ("between last month and last May": time-scope.ts), weekdays with "last week" are last week's only after a clause told as past ("I work Monday to Friday, last week I was sick": a schedule; relative-date.ts `PAST_BEFORE`, `ONE_STRETCH` without "last week"), `REPORTED_AHEAD` ends at a comma or a joining word and a weekday in it lies ahead ("Tom told me the party is on Saturday at 8": 12 December at 8pm; `reportedDay`), booked-for.ts `FROM_RANGE` has "thru" and a dash.
 * 113 (cancel3; review leftovers of rules 109, issue #16 item 4): a day after "is off" / "'s off" is the event's ("the concert's off on Friday", "dinner's off tonight" close the plan of that day and only it; changes.ts `EVENT_OFF`, `OFF_ON_DAY`), and a thing that happens on a day opening the sentence is no one's name ("Dinner is off tonight"; changes.ts `EVENT_NOUN`, `eventNoun`, decide.ts `openingName`, `doneBy`); a possessive before an "-ing" noun compound stays ("Tom's running shoes got ruined", "Tom's driving lessons got cancelled"; contracted-is.ts `readAs`), "Tom's running late" still "Tom is running late"; a month owning a thing is a name, no date ("April's party got cancelled"; not-dates.ts `isRelativesName`), an owner where a participant bears it (decide.ts `openingName`, `possessor`), and no date a cancellation names (decide.ts `DATE_NAMED`, `EVENT_DAY_NAMED`); "off tonight" / "tonight's" name the event's day (`EVENT_DAY_NAMED`: "Dinner's off tonight" leaves Friday's dinner); "my / our" makes another's cancelling the speaker's only inside the thing cancelled ("My sister cancelled the gym because my knee hurts" leaves Maria's gym; decide.ts `forSpeaker`, `CANCELLED_THING_END`); a cancellation names its plan by a word WordNet's first senses share ("The movie got cancelled" / "going to the cinema"; plan-match.ts `sameSense`, `cancelsByObject`); changes.ts `settles` reads `asks` once. After review: a month owning a thing is its owner, a participant or not ("June's party got cancelled" leaves Maria's party; decide.ts `openingName`, `possessor`), a month's part after its possessive is a date ("on March's last day", "on April's first weekend"; not-dates.ts `MONTH_PART`, `monthsThing`), days and months in `OFF_ON_DAY` end at a word boundary ("The class is off on Mondays" cancels nothing); `eventNoun`'s regexp built once (`EVENT_NOUN_WORD`), `sameSense` reads each word's senses once (plan-match.ts `SENSES`).
 * 114 (ranges3; review leftovers of rules 112, issue #16 item 2): a stay booked "from" one weekday to another carries its end ("I booked the cabin from Friday to Sunday": 11 to 13 December, ends on the 14th; relative-date.ts `rangeEnd` with `bookedFor`), and a booked ordinal range ends too ("I booked the hotel from the 20th to the 22nd"; booked-for.ts `bookedFor` reads a range's "from" phrase); an ordinal range with its month after takes that month for both days, the year read ahead or, told as past, behind ("from the 2nd to the 5th of January", "the 20th to the 22nd of January": January 2027; relative-date.ts `ORDINAL_RANGE_END`, `monthNamed`); "a couple of / ten / 10 days ago" dates the act of booking as "two days ago" does (booked-for.ts `ACT_DAY_BEFORE` counts by spans.ts `COUNT`) and "<count> days / weeks / months / years ago" before "I" is a time said before the subject (embedded-rules.ts `TIME_LEAD`: "A couple of days ago I booked a table for Friday" was no fact); a dashed range of weekdays counts as three words ("I'm off Mon-Wed."; embedded-rules.ts `DASHED_WEEKDAYS`, months.ts `WEEKDAY_DASH`) and weekdays of a week's schedule said ahead name no day ("I work Monday to Friday" was "on Monday 7 December"); weekdays said or listed with "last week" are that week's days ("Tuesday and Friday last week": 1 and 4 December; weekday-of-week.ts `LAST_FORMS`); the tense before weekdays with "last week" is the tagger's (told-tense.ts `toldAsPast`), not "-ed" ("Last week was crazy, I need Monday to Wednesday off" is no range of last week; relative-date.ts `PAST_BEFORE` gone); retrieval: "between last March and June", "from last March to last May" are one span of 2026, "the week before last" is 23 to 29 November (time-scope.ts `FROM_LAST_TO`, `WEEK_BEFORE_LAST`); after review: a present stay or state over weekdays is one stretch with its end ("I'm on holiday / in Leeds / busy Monday to Friday"; relative-date.ts `STAY_BEFORE`), only a week's schedule drops the day (`WEEK_SCHEDULE`, a habit), others keep their first day ("I have exams Monday to Friday"); "said / told you I'd … on Friday" looks ahead (`REPORTED_AHEAD`); lower-case "may / march" after an ordinal range is the month only after "of" or at a clause's end (`ORDINAL_RANGE_DAY`); retrieval: "between last March and now" runs to now, "between last June and March" is one span, "the week before last Christmas / month's / year's" is not last week's week before.
 * 115 (cancel4; review leftovers of rules 113, issue #16 item 4): an event told off as ASR writes it, no apostrophe nor stop, reads as written out ("the concerts off on friday" is "the concert is off on friday", "dinners off tonight" closes tonight's dinner; "the concerts were great", "the lights off" stay; told-off.ts `withToldOff`, `GLUED_OFF`), and "call" with its object before "off" is "call off" it ("I called the concert off today" closes Friday's concert; told-off.ts `CALL_THING_OFF`), the day after "called … off" being when it was called off, not the event's (decide.ts `EVENT_DAY_NAMED`); a possessive's thing had with its owner is the owner's ("Tom's dinner is off" closes "Maria is having dinner with Tom", not a dinner with Ana; decide.ts `hadWithPerson`, `theirs`); a spell at a place names the place ("The gym session is cancelled" closes "going to the gym", "The yoga class is cancelled" does not; plan-match.ts `SPELL_HEADS`, `sessionOf`); a month's name opening what a person does is the person ("April is having a party on Saturday" is April's, dated 12 December, no April 2027 read; "April is going to be busy", "May is coming up" stay months; not-dates.ts `PERSON_DOING`, `CLAUSE_START`, `monthAsPerson`; decide.ts `openingName`, so "April's party is off" closes it); one weekday or weekend of a month picked by an ordinal is no coming weekday ("hiking on May's first Sunday", "the last Friday of May", "April's first weekend" stay as said, were "May's first on Sunday 13 December 2026"; not-dates.ts `isMonthsWeekday`, read by relative-date.ts `findDates` beside `isRelativesName`); after review: "off" glued to an event only before the end, a stop, a day or time, "now" or "again" ("the meetings off-site", "the concerts off limits" stay; told-off.ts `GLUED_OFF`), `CALL_THING_OFF` and `EVENT_DAY_NAMED`'s "call … off" reach over the thing called off only, no joining word ("I called Tom and dinner's off tonight" names tonight), a month is a person only before a verb of a person's doing ("April was raining all week" keeps April 2026; not-dates.ts `PERSON_DOING`), the month of "May's first Sunday" / "the first Sunday of May" dates it (not-dates.ts `monthOfWeekday`, relative-date.ts `monthOfPick`: "Maria and Jo…", May 2027, closed by "The hike is off"), and `hadWithPerson` closes only the speaker's own dinner with the owner, none with another the cancellation names (decide.ts `hadWith`).
 * 116 (keepquit; issue #16 item 3, closures-14): a state, habit or plan given up in everyday words ends the open fact it names (quit-or-still.ts `quitDecision`, decide.ts after the plan closings): a verb WordNet lists in a synset with "quit" or "cancel" (give up, stop, discontinue, call off…) or a phrasal one it lacks (`QUIT_PHRASAL`: "packed in"), told as done by the person, not to come, denied or asked; a denied "renewing / continuing" (`GOING_ON`); a thing of thought or act "is out" (`IS_OUT`: "the puppy idea's out", not "out there"); an abstention for a while (`ABSTAINED`: "not had a cigarette in three months" ends "I smoke"); "Raj doesn't need me… anymore" (`NOT_NEEDED`); the fact ended shares a word or a WordNet relative (`related`) with the thing, the head of what is called off where the plan rules read a cancellation already ("I cancelled the cooking class at the restaurant" leaves the restaurant booking). A restatement with "still / as ever / same as before" keeps (KEEP) the fact its clause names, before the plan closings (quit-or-still.ts `restatedDecision`: "Japan's still on for April", "still with Dan"); nothing held ("still deciding", "still haven't"), a clause about "it" ("it still wobbles") or another thing keeps nothing. "Gemma's called off her party", "Rhiannon's given up on keto": a name's "'s" before a verb and a particle or determiner is "has" (contracted-is.ts `PERFECT_NEXT`); after review: the speaker's own quitting only (`ownSubject`; a name told with the person is not the person's) and a "still" of someone else stays an ADD; the thing is the phrase up to a preposition or "to"; a stop at a place, a job or home (profile: the employer rules'), a dated plan for a habit stopped, a recurring fact for one occurrence, an abstention shorter than weeks and a need not of "me… anymore" end nothing.
 */
export const EMBEDDED_RULES_VERSION = 116;
