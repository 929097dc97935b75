export { detectIntroduction, detectSelfIntroduction, type Introduction, type IntroductionForm } from './self-introduction.js';
export { findVocatives } from './vocatives.js';
