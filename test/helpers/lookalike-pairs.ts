/**
 * Word pairs alike by their letters (so `stemMatches` asks WordNet about them), for the stem-matching tests and
 * `bench/wordnet-lookalikes.ts` (issue #16 item 6).
 */

/** Related pairs that WordNet 3.0 relates (a base form, a derivational pointer, a definition, one synset met). */
export const RELATED_ALIKE: readonly (readonly [string, string])[] = [
    ['gymnast', 'gymnastics'], ['comedian', 'comedy'], ['nature', 'natural'], ['baker', 'bakery'], ['cancel', 'cancellation'],
    ['allergy', 'allergic'], ['programmer', 'programming'], ['piano', 'pianist'], ['painter', 'paintings'], ['employer', 'employment'],
    ['manager', 'management'], ['swimmer', 'swimming'], ['runner', 'running'], ['married', 'marriage'], ['art', 'artist'],
    ['economy', 'economics'], ['developer', 'development'], ['writer', 'writings'], ['governor', 'government'],
    ['investor', 'investment'], ['entertainer', 'entertainment'], ['athlete', 'athletics'], ['music', 'musician'],
    ['photograph', 'photographer'], ['photography', 'photographer'], ['science', 'scientist'], ['biology', 'biologist'],
    ['guitar', 'guitarist'], ['violin', 'violinist'], ['garden', 'gardening'], ['cook', 'cooking'], ['dance', 'dancer'],
    ['teach', 'teacher'], ['history', 'historian'], ['politics', 'politician'], ['magic', 'magician'], ['medicine', 'medical'],
    ['culture', 'cultural'], ['religion', 'religious'], ['adventure', 'adventurous'], ['nutrition', 'nutritionist'],
    ['therapy', 'therapist'], ['journalism', 'journalist'], ['psychology', 'psychologist'], ['chemistry', 'chemist'],
    ['mathematics', 'mathematician'], ['physics', 'physicist'], ['farm', 'farmer'], ['bake', 'bakery'], ['hike', 'hiker'],
    ['camp', 'camping'], ['tour', 'tourist'], ['friend', 'friendship'], ['child', 'childhood'], ['parent', 'parenting'],
    ['adopt', 'adoption'], ['competition', 'competitive'], ['compete', 'competition'], ['meditate', 'meditation'],
    ['inspire', 'inspiration'], ['graduate', 'graduation'], ['celebrate', 'celebration'], ['relax', 'relaxation'],
    ['educate', 'education'], ['fish', 'fishing'], ['nurse', 'nursing'], ['design', 'designer'], ['draw', 'drawing'], ['sing', 'singer'],
    ['act', 'actor'], ['drum', 'drummer'], ['surf', 'surfing'], ['ceramics', 'ceramic'], ['potter', 'pottery'], ['novel', 'novelist'],
    ['comedy', 'comedic'], ['drama', 'dramatic'], ['nation', 'national'], ['emotion', 'emotional'], ['tradition', 'traditional'],
    ['profession', 'professional'], ['mechanic', 'mechanical'], ['library', 'librarian'], ['bike', 'biking'], ['ski', 'skiing'],
    ['climb', 'climber'], ['box', 'boxing'], ['gymnastic', 'gymnastics'], ['poet', 'poetry'], ['astronomy', 'astronomer'],
    ['archaeology', 'archaeologist'],
];

/** Related pairs WordNet cannot tell: no pointer, no definition names the other. */
export const RELATED_UNTOLD: readonly (readonly [string, string])[] = [['electric', 'electrician'], ['vegetarian', 'vegetarianism'], ['zoo', 'zoology']];

/** Unrelated pairs WordNet keeps apart. */
export const UNRELATED_ALIKE: readonly (readonly [string, string])[] = [
    ['organ', 'organization'], ['universe', 'university'], ['general', 'generous'], ['new', 'news'], ['police', 'policy'],
    ['arm', 'army'], ['author', 'authority'], ['port', 'portion'], ['car', 'career'], ['host', 'hostile'], ['pain', 'paint'],
    ['pain', 'painting'], ['plan', 'planet'], ['hat', 'hatred'], ['pen', 'penalty'], ['moth', 'mother'], ['ear', 'early'],
    ['ear', 'earth'], ['son', 'song'], ['hum', 'human'], ['gall', 'gallery'], ['pal', 'palace'], ['dog', 'dogma'], ['fun', 'funeral'],
    ['mess', 'message'], ['cap', 'captain'], ['corn', 'corner'], ['sea', 'season'], ['mat', 'matter'], ['bus', 'business'],
    ['man', 'mansion'], ['page', 'pageant'], ['rose', 'rosemary'], ['mist', 'mistake'], ['star', 'start'], ['war', 'warm'],
    ['tab', 'table'], ['cell', 'cellar'], ['doll', 'dollar'], ['kid', 'kidney'], ['ham', 'hamster'], ['pill', 'pillow'],
    ['van', 'vanilla'], ['passion', 'passive'], ['secret', 'secretary'], ['mortal', 'mortgage'], ['plane', 'planet'],
    ['cart', 'cartoon'], ['bull', 'bullet'], ['pump', 'pumpkin'], ['carpet', 'carpenter'], ['process', 'procession'],
    ['depart', 'department'], ['apart', 'apartment'], ['ward', 'wardrobe'], ['hang', 'hangar'], ['art', 'article'], ['art', 'artery'],
    ['new', 'newt'], ['pain', 'painter'], ['sever', 'several'], ['ton', 'tongue'], ['leg', 'legend'], ['cat', 'catalog'],
    ['ban', 'banana'],
];

/** Unrelated pairs WordNet 3.0 joins: a derivational pointer (cow / coward), a comparative (flat / flatter), a pertainym (organ / organic). */
export const UNRELATED_JOINED: readonly (readonly [string, string])[] = [['cow', 'coward'], ['flat', 'flatter'], ['organ', 'organic']];

/** The look-alikes the review of `WordNet.related` found joined by sibling derivations, a common base or a definition. */
export const REVIEW_LOOKALIKES: readonly (readonly [string, string])[] = [
  ['college', 'colleague'], ['organ', 'organism'], ['sign', 'significant'], ['commitment', 'committee'], ['clerk', 'clergy'],
  ['phone', 'phonetics'],
];

/** Look-alikes written for this bench: alike by their letters, apart in meaning. */
export const FRESH_LOOKALIKES: readonly (readonly [string, string])[] = [
  ['bar', 'barrel'], ['cab', 'cabinet'], ['pot', 'potato'], ['tan', 'tangent'], ['ant', 'antique'], ['bat', 'battery'],
  ['bow', 'bowel'], ['mar', 'marble'], ['cot', 'cotton'], ['den', 'dentist'], ['fig', 'figure'], ['pat', 'patent'],
  ['rat', 'ration'], ['sun', 'sundae'], ['tar', 'target'], ['tea', 'team'], ['mole', 'molecule'], ['cock', 'cockroach'],
  ['hare', 'harem'], ['lime', 'limerick'], ['mean', 'meander'], ['pass', 'passenger'], ['pea', 'peace'], ['scar', 'scarf'],
  ['slim', 'slime'], ['ten', 'tennis'], ['bran', 'brand'], ['mall', 'mallet'], ['ration', 'rational'], ['custom', 'costume'],
];
