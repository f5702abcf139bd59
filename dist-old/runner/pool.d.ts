/** Runs tasks with at most `limit` in flight, starting none once `stop()` says so. */
export declare function pool<T>(items: T[], limit: number, task: (item: T) => Promise<void>, stop: () => boolean): Promise<void>;
