export const HOUR_MS = 60 * 60 * 1000;
export const MB = 1024 * 1024;
