/** A call that saves and answers with the spec's success message (shown as a toast). */
export type SaveCall<A = void> = (input: A) => Promise<{ message: string }>;
