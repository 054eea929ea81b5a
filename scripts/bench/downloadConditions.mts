/** The download both memory measurements use, so that their figures compare. */
export const DOWNLOAD_FILE_BYTES = 50 * 1024 * 1024;
/** A good real network (about 160 Mbit/s). Unthrottled, loopback buffers tens of MB in sockets and TLS. */
export const DOWNLOAD_BYTES_PER_SECOND = 20 * 1024 * 1024;
