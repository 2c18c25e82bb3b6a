/** Where the offline viewer template lands in dist/ (kept apart so vite.config loads nothing else). */
export const VIEWER_TEMPLATE_FILE = 'report-viewer.html';
