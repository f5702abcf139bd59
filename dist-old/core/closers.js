/**
 * Connections a command opened that would keep the process alive after it ends (a Redis client): each registers how
 * to close it here, and the launcher closes them all when the command returns (`closeAll`).
 */
const closers = new Set();
export function closeAtEnd(close) {
    closers.add(close);
    return () => closers.delete(close);
}
export function closeAll() {
    for (const close of [...closers]) {
        closers.delete(close);
        try {
            close();
        }
        catch {
            // closing is best effort
        }
    }
}
