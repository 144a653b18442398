/**
 * Words every surface of the understanding layer shares: function words that never name a place
 * or a thing, and texting shorthand and misspellings that edit distance alone gets wrong.
 */

/** Function words; never part of a room or sensor name on their own. */
export const STOP_WORDS = new Set([
  'the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'to', 'of', 'in', 'on', 'at', 'for', 'from', 'by',
  'with', 'and', 'or', 'but', 'if', 'when', 'whenever', 'then', 'also', 'plus', 'too', 'as', 'well', 'is', 'are',
  'be', 'was', 'were', 'been', 'am', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'should', 'may',
  'might', 'must', 'just', 'so', 'very', 'really', 'any', 'some', 'about', 'around', 'into', 'out', 'up', 'down',
  'over', 'under', 'there', 'here', 'what', 'which', 'who', 'how', 'not', 'no', 'yes', 'hey', 'hi', 'oh', 'um',
  'hmm', 'actually', 'maybe', 'still', 'only', 'else', 'same', 'until', 'till', 'til', 'through', 'between',
  'after', 'before', 'since', 'during', 'right', 'now', 'please', 'kindly', 'is', "'s", 'its', 'it', 'they',
  'them', 'these', 'those', 'that', 'this', 'me', 'you', 'we', 'i', 'us', 'get', 'got', 'go', 'going', 'come',
  'comes', 'came', 'make', 'keep', 'let', 'know', 'tell', 'see', 'like', 'need', 'want', 'thanks', 'ok', 'okay',
]);

/** Texting shorthand and common misspellings that edit distance alone gets wrong. */
export const SPELLING_FIXES: Record<string, string> = {
  '2nite': 'tonight', '2night': 'tonight', tonite: 'tonight', tonigt: 'tonight', pls: 'please', plz: 'please',
  u: 'you', ur: 'your', teh: 'the', hte: 'the', untill: 'until', til: 'until', till: 'until', thru: 'through',
  tmrw: 'tomorrow', tmr: 'tomorrow', tomoz: 'tomorrow', 'tmrw.': 'tomorrow', whats: "what's", hows: "how's",
  wheres: "where's", whos: "who's", dont: "don't", cant: "can't", im: "i'm", thx: 'thanks', ty: 'thanks',
  livingroom: 'living room', frontdoor: 'front door', backdoor: 'back door', 'b4': 'before', cam: 'cam', cu: 'see you',
  anyones: "anyone's", someones: "someone's", nite: 'night', midnite: 'midnight', mins: 'minutes', hrs: 'hours', hr: 'hour',
  // texting shorthand ("wat r u watching rn")
  wat: 'what', wot: 'what', r: 'are', rn: 'right now', atm: 'at the moment', ya: 'you', yr: 'your', abt: 'about', bc: 'because', cuz: 'because',
};
