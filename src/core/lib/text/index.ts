// Door of the text helpers: terminal escapes stripped, secrets masked, text decoded and truncated, paths written
// and read as shell words and @-mentions.
export { closestName } from "./closest-name.js";
export { decodeText, withoutBom } from "./decode-text.js";
export { editDistance } from "./edit-distance.js";
export { escapeRegex } from "./escape-regex.js";
export {
	showControls,
	stripCommandOutput,
	stripControls,
	stripToOneLine,
	unfinishedSequenceStart,
} from "./sanitize-terminal.js";
export { MASK, maskValues, redactSecrets, type SecretMask } from "./secret-mask.js";
export { type Mention, mentions, mentionWord, type PathWord, pathWordAt, shellWord } from "./shell-words.js";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, truncateHead, truncateTail, type TruncationResult } from "./truncate.js";
