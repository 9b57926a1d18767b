/** The shape every language file must have: the English file's keys, each a string. */
export type TranslationShape<T> = { [K in keyof T]: T[K] extends string ? string : TranslationShape<T[K]> };
