/** What the spec's date filter gives for an empty or unparsable value (01 §8). */
export const INVALID_DATE = 'Invalid Date';
/** What the screens show in place of 'Invalid Date', and for numbers that are not finite. */
export const NOT_AVAILABLE = 'N/A';
/** Read-only fields without a value (01 §5). */
export const NOT_PROVIDED = 'Not Provided';
/** Placeholder of the tag input (01 §5). */
export const TAG_INPUT_HINT = 'Press enter to add tag';
/** Appended by `truncate` and `excerpt`: three ASCII dots, so the text survives any font or export. */
export const ELLIPSIS = '...';
