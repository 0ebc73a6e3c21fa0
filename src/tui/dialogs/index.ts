// Door of the dialogs as data: the question queue (the screen's SessionUi), pickers, their keys and layout.
export { dialogKeys, type DialogKey } from "./dialog-keys.js";
export { bodyStart, pickerLayout, textBlockLayout, type DialogChrome } from "./dialog-layout.js";
export {
	DialogQueue,
	dismiss,
	type ConfirmDialog,
	type Dialog,
	type InputDialog,
	type SelectDialog,
} from "./dialog-queue.js";
export { pickerHints, pickerRows, wrappedChoiceRows } from "./picker-rows.js";
export { choiceKeys, initialPicker, matchingChoices, pickerStep } from "./picker-state.js";
