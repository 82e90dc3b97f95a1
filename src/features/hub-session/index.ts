/** Public entry of the hub session feature: signing in to a team hub, who is signed in, and a session that ended. */
export { MemberMenu } from './member-menu';
export { signInAgainHref } from './session-watch';
export { SignInPage } from './sign-in-page';
