/**
 * What maintenance mode closes: every public and user route (`/api/...`), media files (`/media/...`)
 * and any HTML page; what stays open: `/api/ping` (liveness) and the admin API (`/admin/...`), so
 * operators and health checks keep working.
 */
export function closedDuringMaintenance(path: string): boolean {
  return !(path === '/api/ping' || path === '/admin' || path.startsWith('/admin/'));
}
