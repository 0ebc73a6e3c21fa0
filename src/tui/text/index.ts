// Door of terminal text: measuring, wrapping and fitting styled text, markdown and code colours, NO_COLOR.
export { columns, cutEnd, cutMiddle, fieldWindow, firstThatFits } from "./fit-row.js";
export { awaitsHighlighter, loadHighlighter, renderMarkdown, warmUpMarkdown } from "./markdown.js";
export { colorRefused } from "./color-refused.js";
export { colorlessStream } from "./no-color.js";
export { noticeRows } from "./notice-rows.js";
export { openFenceLine, splitFinished } from "./paragraph-split.js";
export { charWidth, lastRows, truncateRow, wrapRows } from "./wrap.js";
