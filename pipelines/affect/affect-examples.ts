/** Small hand-written labelled set for few-shot text emotion (ours, committed with the code). */

/** A labelled example for few-shot text emotion: [text, label]. */
export type LabelledExample = readonly [string, string];

/** Valence of each emotion label in [-1, 1]. */
export const LABEL_VALENCE: Record<string, number> = { joy: 0.8, anger: -0.8, sadness: -0.7, fear: -0.6, neutral: 0 };

/** The examples, grouped by label in {@link LABEL_VALENCE}'s order (the order label ties are broken in). */
export const AFFECT_EXAMPLES: readonly LabelledExample[] = [
  ['I am so happy about this', 'joy'], ['This is the best news ever', 'joy'], ['I love it, it is wonderful', 'joy'],
  ['What a great day we had', 'joy'], ['I am thrilled and excited', 'joy'], ['That made me smile all day', 'joy'],
  ['I am furious about what happened', 'anger'], ['This makes me so angry', 'anger'], ['I hate how they treated me', 'anger'],
  ['It is outrageous and unfair', 'anger'], ['Stop lying to me, I am fed up', 'anger'], ['I am really annoyed with him', 'anger'],
  ['I feel so sad and lonely', 'sadness'], ['I miss her terribly', 'sadness'], ['It broke my heart', 'sadness'],
  ['I have been crying all night', 'sadness'], ['I feel down and hopeless', 'sadness'], ['Losing the dog was devastating', 'sadness'],
  ['I am scared of what might happen', 'fear'], ['I am worried about the surgery', 'fear'], ['That noise terrified me', 'fear'],
  ['I am nervous about the interview', 'fear'], ['I feel anxious all the time', 'fear'], ['What if something goes wrong', 'fear'],
  ['The meeting is at three', 'neutral'], ['I took the bus to work', 'neutral'], ['The report has ten pages', 'neutral'],
  ['We talked about the schedule', 'neutral'], ['It is on the second floor', 'neutral'], ['I bought some bread', 'neutral'],
];
