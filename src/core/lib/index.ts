// Door of core/lib: files, text and processes, with no knowledge of agents.
export { ABORT_GRACE_MS, AbortedError, raceAbort } from "./abort.js";
export {
	CheckedReadError,
	openRegularFile,
	readAt,
	readCheckedFile,
	readCheckedText,
	readOpenFile,
	specialFileKind,
	type RegularFile,
} from "./checked-read.js";
export { errorMessage, errorMessageWithCause } from "./error-text.js";
export {
	FileChangedError,
	MAX_IMAGE_BYTES,
	SNIFF_BYTES,
	atomicWriteFile,
	detectImageMimeType,
	directoryNames,
	entryExists,
	isDirectory,
	looksBinary,
	outputFolder,
	parseJson,
	readConfigText,
	readJsonState,
	readSnapshot,
	realpathOrSelf,
	removeStaleOutputFolders,
	replaceFileSync,
	repositoryTop,
	takeShortLock,
	walkTree,
	writeJsonState,
	type EntryKind,
	type FileSnapshot,
	type ImageMimeType,
	type TreeEntry,
	type WalkOptions,
} from "./files/index.js";
export { formatCost, formatCount, formatLocalMinute, formatRelativeTime, formatSize, formatTokens } from "./format.js";
export { expandHome } from "./home-path.js";
export { ProcessGroupSet, claimUncaughtErrors, isAlive, offerUncaughtError, onProcessExit, type UncaughtErrorClaimer } from "./process/index.js";
export { rawBoolean, rawField, rawNumber, rawString } from "./raw-value.js";
export {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	MASK,
	closestName,
	decodeText,
	editDistance,
	escapeRegex,
	maskValues,
	redactSecrets,
	showControls,
	stripCommandOutput,
	stripControls,
	stripToOneLine,
	truncateHead,
	truncateTail,
	unfinishedSequenceStart,
	withoutBom,
	type SecretMask,
	type TruncationResult,
} from "./text/index.js";
