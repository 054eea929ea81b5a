// Reading requests into log records and writing answers, shared by both origins.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { LoggedRequest, Origin } from './types.mts';

const MAX_BODY_BYTES = 1024 * 1024;

export interface Answer {
	status: number;
	headers: Record<string, string>;
	/** A string, or a stream factory for large bodies (with its own Content-Length header). */
	body: string | (() => Readable);
}

export function jsonAnswer(
	status: number,
	value: unknown,
	headers: Record<string, string> = {},
): Answer {
	return {
		status,
		headers: { 'content-type': 'application/json', ...headers },
		body: JSON.stringify(value),
	};
}

export function rawJsonAnswer(status: number, json: string): Answer {
	return { status, headers: { 'content-type': 'application/json' }, body: json };
}

export function htmlAnswer(status: number, html: string): Answer {
	return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of req as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > MAX_BODY_BYTES) throw new Error('Request body too large');
		chunks.push(chunk);
	}
	return Buffer.concat(chunks).toString('utf8');
}

function stringValues(value: unknown): Record<string, string> {
	if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
	const result: Record<string, string> = {};
	for (const [key, field] of Object.entries(value)) {
		result[key] = typeof field === 'string' ? field : JSON.stringify(field);
	}
	return result;
}

function parseMultipart(body: string, contentType: string): Record<string, string> {
	const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
	if (!boundary) return {};
	const result: Record<string, string> = {};
	for (const part of body.split(`--${boundary}`)) {
		const separator = part.indexOf('\r\n\r\n');
		if (separator < 0) continue;
		const name = /name="([^"]*)"/i.exec(part.slice(0, separator))?.[1];
		if (name !== undefined) result[name] = part.slice(separator + 4).replace(/\r\n$/, '');
	}
	return result;
}

/** Fields of an urlencoded, multipart or JSON body (JSON values that are not strings are re-encoded). */
export function parseForm(body: string, contentType: string): Record<string, string> {
	if (!body) return {};
	const type = contentType.toLowerCase();
	if (type.includes('application/x-www-form-urlencoded')) {
		return Object.fromEntries(new URLSearchParams(body));
	}
	if (type.includes('multipart/form-data')) return parseMultipart(body, contentType);
	if (type.includes('json')) {
		try {
			return stringValues(JSON.parse(body));
		} catch {
			return {};
		}
	}
	return {};
}

export async function readRequest(
	req: IncomingMessage,
	origin: Origin,
	now: () => number = Date.now,
): Promise<LoggedRequest> {
	const url = new URL(req.url ?? '/', 'https://localhost');
	const body = await readBody(req);
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(req.headers)) {
		if (value !== undefined)
			headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	}
	return {
		origin,
		method: (req.method ?? 'GET').toUpperCase(),
		path: url.pathname,
		query: Object.fromEntries(url.searchParams),
		headers,
		form: parseForm(body, headers['content-type'] ?? ''),
		body,
		time: now(),
	};
}

export async function writeAnswer(
	res: ServerResponse,
	answer: Answer,
	method: string,
): Promise<void> {
	const headers = { ...answer.headers };
	if (typeof answer.body === 'string') {
		const payload = Buffer.from(answer.body, 'utf8');
		headers['content-length'] = String(payload.length);
		res.writeHead(answer.status, headers);
		res.end(method === 'HEAD' ? undefined : payload);
		return;
	}
	res.writeHead(answer.status, headers);
	if (method === 'HEAD') {
		res.end();
		return;
	}
	await pipeline(answer.body(), res);
}

/** Sends the headers and about half of the body, then cuts the connection: a truncated transfer. */
export async function writeTruncated(res: ServerResponse, answer: Answer): Promise<void> {
	const full = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : undefined;
	const headers = { ...answer.headers };
	if (full) headers['content-length'] = String(full.length);
	const total = Number(headers['content-length'] ?? 0);
	res.writeHead(answer.status, headers);
	if (full) {
		res.write(full.subarray(0, Math.floor(full.length / 2)));
	} else if (typeof answer.body === 'function') {
		let sent = 0;
		for await (const chunk of answer.body() as AsyncIterable<Buffer>) {
			const room = Math.floor(total / 2) - sent;
			if (room <= 0) break;
			const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
			sent += piece.length;
			if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
		}
	}
	await new Promise((resolve) => setTimeout(resolve, 20));
	res.socket?.destroy();
}

export function dropConnection(res: ServerResponse): void {
	res.socket?.destroy();
}
