// The words of a goal or an audience that are worth searching the knowledge for.
const STOP = new Set(
  (
    'a an the and or but of for to in on at by with from into about as is are was were be been being it its this that these those ' +
    'we our us you your they their them i me my he she his her who whom which what when where why how all any some more most ' +
    'get got make made do does did can could should would will shall may might must not no than then so such very just also ' +
    'book booked books meeting meetings demo demos call calls sell selling sales lead leads email emails sequence outreach people ' +
    'want need help like new use using get reach reaching'
  ).split(/\s+/),
);

/** Lower-case words of 3+ letters that are not stop words, in first-seen order, at most 24. */
export function keywords(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (word.length >= 3 && !STOP.has(word) && !out.includes(word)) out.push(word);
    if (out.length === 24) break;
  }
  return out;
}
