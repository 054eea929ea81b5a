/** LibreBOR's alert IDs, as text for the editor's check (a resource locator's regex is a string). */
export const UUID_REGEX =
	'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
export const UUID_PATTERN = new RegExp(UUID_REGEX);
