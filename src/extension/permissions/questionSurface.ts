/**
 * Where the agent's questions (permissions, forms) can be answered in place: the Chat view when
 * it is on screen and listening. While it shows them, no notification or input box is added,
 * which would stay behind once the question is answered there.
 */
export interface QuestionSurface {
  readonly showsQuestions: boolean;
}
