export const SPLITS = ["dev", "train", "test", "minidev"];
