const { rmSync } = require('node:fs');
const { src, dest } = require('gulp');

/** Stale output of renamed or deleted sources must never be published. */
exports.clean = async function clean() {
	rmSync('dist', { recursive: true, force: true });
};

/** tsc compiles the TypeScript; the icons and codex files are copied beside it. */
function copyIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

function copyCodex() {
	return src('nodes/**/*.node.json').pipe(dest('dist/nodes'));
}

exports['build:assets'] = async function buildAssets() {
	await new Promise((resolve, reject) => copyIcons().on('end', resolve).on('error', reject));
	await new Promise((resolve, reject) => copyCodex().on('end', resolve).on('error', reject));
};
