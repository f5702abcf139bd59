import type { Benchmark } from "../state/question.ts";
/** The questions to run: `--ids` and `--limit` (counted in file order, skipped ones included, so a subset is stable). */
export declare function selectQuestions(bench: Benchmark, ids: string[] | undefined, limit: number | undefined): {
    questions: {
        id: string;
        dbId: string;
        dbPath: string;
        question: string;
        evidence: string;
        goldSql?: string | undefined;
        difficulty?: string | undefined;
        descriptionDir?: string | undefined;
        position?: number | undefined;
    }[];
    skipped: {
        id: string;
        dbId: string;
        reason: string;
        position?: number | undefined;
    }[];
};
/** Benchmark order: the questions' places in their file; without them numeric ids sort as numbers, others keep their order. */
export declare function fileOrder<T extends {
    id: string;
    position?: number | undefined;
}>(items: T[]): T[];
