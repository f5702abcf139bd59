export declare function closeAtEnd(close: () => void): () => void;
export declare function closeAll(): void;
