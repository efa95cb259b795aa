/** The documents the AI tools read the text of: PDF, Word and other office files, text. */
export const AI_DOCUMENT_ACCEPT = '.pdf,.doc,.docx,.odt,.rtf,.txt,application/pdf,text/plain';
