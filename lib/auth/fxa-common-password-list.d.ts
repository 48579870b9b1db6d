declare module "fxa-common-password-list" {
  /** Mozilla's list of the 10,000 most common passwords. */
  const commonPasswords: { test(password: string): boolean };
  export default commonPasswords;
}
