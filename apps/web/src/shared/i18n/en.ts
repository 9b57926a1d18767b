// The English strings are the reference: every other language file must have exactly these keys
// (`TranslationShape<typeof en>`, and the i18n completeness test).
export const en = {
  app: {
    name: 'CareDeck',
  },
  common: {
    retry: 'Retry',
    loading: 'Loading…',
    notProvided: 'Not Provided',
    showHide: 'Show or hide characters',
    clear: 'Clear',
  },
  errors: {
    backend: 'Error communicating with backend!',
    network: 'The server could not be reached. Check your connection and try again.',
    rateLimited: 'Too many attempts. Please wait a moment and try again.',
    server: 'The server could not complete the request. Please try again later.',
    unexpected: 'Something unexpected happened. Please try again.',
  },
  validation: {
    required: 'This field is required.',
    email: 'Enter a valid email address.',
    code: 'The code must be 6 digits.',
    passwordWeak:
      'Use at least {{min}} characters and mix at least three of: lower case, upper case, digits, symbols.',
    phone: 'Enter a valid phone number.',
    maxLength: 'Use at most {{max}} characters.',
    timeZone: 'Choose a valid time zone.',
    dateFormat: 'Enter the date as DD-MM-YYYY, DD.MM.YYYY, DD/MM/YYYY, YYYY-MM-DD or DD/MM/YY.',
    dateImpossible: 'This day does not exist.',
    dateBeforeMin: 'The date must be on or after {{min}}.',
    dateAfterMax: 'The date must be on or before {{max}}.',
  },
  auth: {
    email: 'Email',
    password: 'Password',
    signIn: 'Sign in',
    signInTitle: 'Sign in to CareDeck',
    signInSubtitle: 'Use the email address and password of your CareDeck account.',
    forgotPassword: 'Forgot your password?',
    createAccount: 'Create an account',
    backToSignIn: 'Back to the sign-in form',
    alreadyLoggedIn: 'You are already logged in!',
    passwordsDoNotMatch: 'Passwords do not match. Please try again.',
    passwordExpiredTitle: 'Password Expired',
    passwordExpiredMessage:
      'Your password automatically expires after 3 months, please reset your password to login',
    newPasswordLabel: 'New password',
    confirmPasswordLabel: 'Confirm password',
    newPassword: {
      title: 'Choose a new password',
      description:
        'Your account was created with a temporary password. Choose your own password to continue.',
      submit: 'Set password',
    },
    mfa: {
      title: 'Two-factor authentication',
      description: 'Enter the 6-digit code shown by your authenticator app.',
      code: 'Authentication code',
      submit: 'Verify',
    },
    hipaa: {
      title: 'HIPAA consent',
      intro:
        'CareDeck gives you access to protected health information (PHI). Before you continue, please read and accept the following.',
      point1: 'I will access patient information only when I need it to provide care or to do my job.',
      point2:
        'I will not share my account, and I will keep the information I see confidential, in line with HIPAA and the policies of my organisation.',
      point3:
        'I understand that my access is logged and audited, and that misuse can lead to loss of access and to legal consequences.',
      point4: 'I will sign out or lock my device when I leave it unattended.',
      accept: 'Accept',
      decline: 'Decline and sign out',
    },
    forgot: {
      title: 'Reset your password',
      description:
        'Enter the email address of your account. We will send you a 6-digit code to reset your password.',
      submit: 'Send reset code',
    },
    reset: {
      title: 'Enter your reset code',
      description:
        'If an account exists for {{email}}, a 6-digit code is on its way. Enter it with your new password.',
      code: 'Reset code',
      submit: 'Reset password',
      done: 'Your password has been reset. Please sign in with your new password.',
    },
    register: {
      title: 'Create an account',
      givenName: 'First name',
      familyName: 'Last name',
      submit: 'Create account',
    },
    confirm: {
      title: 'Confirm your email address',
      description: 'We sent a 6-digit confirmation code to {{email}}. Enter it to activate your account.',
      code: 'Confirmation code',
      submit: 'Confirm account',
      done: 'Your account is confirmed. You can now sign in.',
    },
    legalLinks: 'Legal information',
  },
  nav: {
    label: 'Main navigation',
    patients: 'Patients',
    settings: 'Settings',
  },
  shell: {
    userMenu: 'User menu',
    signOut: 'Sign out',
    settings: 'Settings',
    toggleNavigation: 'Toggle navigation',
    footer: '© {{year}} CareDeck. For authorised care team members only.',
    loading: 'Loading the page…',
    signedInAs: 'Signed in as {{name}}',
  },
  scope: {
    program: 'Program',
    enterprise: 'Enterprise',
    programScope: 'No enterprise',
    enterpriseScope: 'Enterprise scope: all programs of {{name}}',
    none: 'No program available',
  },
  search: {
    open: 'Search pages',
    placeholder: 'Search pages…',
    nothingFound: 'No page matches your search.',
    starred: 'Starred pages',
    pages: 'Pages',
    star: 'Star {{page}}',
    unstar: 'Remove the star from {{page}}',
    starLimit: 'You can star at most {{max}} pages.',
    shortcut: 'Ctrl + K',
  },
  theme: {
    label: 'Theme',
    light: 'Light',
    dark: 'Dark',
    semiDark: 'Semi-dark',
  },
  languages: {
    label: 'Language',
    en: 'English',
    de: 'Deutsch',
    fr: 'Français',
    pt: 'Português',
  },
  patients: {
    title: 'Patients',
    search: 'Search patients',
    searchPlaceholder: 'Name',
    columns: {
      name: 'Name',
      dob: 'Date of birth',
      sex: 'Sex',
      status: 'Status',
      assignedAdmin: 'Assigned admin',
      created: 'Created',
    },
    sex: {
      female: 'Female',
      male: 'Male',
      other: 'Other',
      unknown: 'Unknown',
    },
    status: {
      active: 'Active',
      inactive: 'Inactive',
      pending: 'Pending',
      discharged: 'Discharged',
    },
    empty: 'No patients yet.',
    emptySearch: 'No patients match “{{search}}”.',
    error: 'The patients could not be loaded.',
    perPage: 'Rows per page',
    total: 'Total: {{count}}',
    pagination: 'Patient list pages',
  },
  settings: {
    title: 'Settings',
    profile: {
      heading: 'Profile',
      givenName: 'Given name',
      familyName: 'Family name',
      jobTitle: 'Title',
      about: 'About',
      phone: 'Phone number',
      timeZone: 'Time zone',
      timeZonePlaceholder: 'Choose a time zone',
      save: 'Save profile',
      saved: 'Your profile has been saved.',
    },
    preferences: {
      heading: 'Language and theme',
      saved: 'Your preferences have been saved.',
    },
    mfa: {
      heading: 'Two-factor authentication',
      on: 'Two-factor authentication is on for your account.',
      off: 'Two-factor authentication is off. Turn it on to protect your account with a code from an authenticator app.',
      setup: 'Set up two-factor authentication',
      instructions:
        'Add this key to your authenticator app (or open the setup link on your phone), then enter the 6-digit code the app shows.',
      secret: 'Secret key',
      otpauthUrl: 'Setup link',
      code: 'Authentication code',
      enable: 'Turn on two-factor authentication',
      disable: 'Turn off two-factor authentication',
      enabled: 'Two-factor authentication is now on.',
      disabled: 'Two-factor authentication is now off.',
    },
    password: {
      heading: 'Change password',
      current: 'Current password',
      new: 'New password',
      confirm: 'Confirm new password',
      submit: 'Change password',
      changed: 'Your password has been changed.',
    },
  },
  pages: {
    notAuthorized: {
      title: 'Not authorized',
      message: 'You do not have permission to open this page. Ask an administrator if you need access.',
      home: 'Go to the patient list',
    },
    chunkError: {
      title: 'This part of CareDeck did not load',
      message: 'The connection may be slow or a new version may have been released. Please try again.',
    },
    error: {
      title: 'Something went wrong',
      message: 'An unexpected error stopped this page. Reload to try again.',
      reload: 'Reload',
    },
    guestMessenger: {
      title: 'Messenger',
      unavailable: 'The guest messenger is not available yet. Please contact your care team directly.',
    },
  },
  controller: {
    title: 'Controller area',
    signInTitle: 'Controller sign in',
    signInSubtitle: 'This area has its own accounts. Care team accounts do not work here.',
    signedInAs: 'Signed in as {{name}}',
    comingSoon: 'The controller screens are not available yet.',
    signOut: 'Sign out',
  },
  legal: {
    lastUpdated: 'Last updated: {{date}}',
    backToSignIn: 'Back to sign in',
    terms: {
      title: 'Terms of use',
      intro:
        'These terms govern your use of CareDeck, a console that helps care teams monitor patients and their medication adherence. By signing in you agree to them.',
      useTitle: 'Who may use CareDeck',
      use: 'CareDeck is for staff of organisations that have an agreement with us: clinicians, care coordinators, pharmacy and pharma staff and administrators. You may use it only for the care and support of the patients of your program.',
      accountTitle: 'Your account',
      account:
        'Your account is personal. Keep your password secret, turn on two-factor authentication, and tell your administrator at once if you think someone else has used your account.',
      dataTitle: 'Patient information',
      data: 'Patient information belongs to the patients and to your organisation. Open only what you need for your work, do not copy it outside CareDeck without permission, and follow HIPAA and your organisation’s policies.',
      availabilityTitle: 'Availability',
      availability:
        'We work to keep CareDeck available and accurate, but it does not replace clinical judgement or emergency services. Alerts and adherence figures depend on devices and networks that can fail.',
      changesTitle: 'Changes',
      changes:
        'We may update these terms. We will tell you about important changes in the console before they take effect.',
      contactTitle: 'Contact',
      contact: 'Questions about these terms: legal@caredeck.example.',
    },
    privacy: {
      title: 'Privacy policy',
      intro:
        'This policy explains which personal information CareDeck processes, why, and the choices you have. CareDeck processes patient information on behalf of your organisation as a HIPAA business associate.',
      collectTitle: 'What we collect',
      collect:
        'For staff: name, email address, phone number, job title, time zone, sign-in and sign-out times, pages visited and actions taken. For patients: the demographic, medication, device and adherence information your organisation enters or connects.',
      useTitle: 'How we use it',
      use: 'To provide the console, to secure it (authentication, audit logs, abuse prevention), to support you, and to meet our legal obligations. We do not sell personal information and we do not use it for advertising.',
      shareTitle: 'Who sees it',
      share:
        'Only the staff of your organisation with the right role, and our own staff when they need to support or maintain the service under confidentiality obligations. Service providers that host CareDeck act on our instructions.',
      securityTitle: 'Security',
      security:
        'Information is encrypted in transit, access is limited by role and program, sessions end after inactivity, and every access to patient information is logged.',
      retentionTitle: 'Retention',
      retention:
        'We keep information as long as your organisation’s agreement requires, then delete or return it. Audit logs are kept as long as the law requires.',
      rightsTitle: 'Your rights',
      rights:
        'You can ask to see, correct or delete your personal information. Patients exercise their rights through their care provider.',
      contactTitle: 'Contact',
      contact: 'Privacy questions and requests: privacy@caredeck.example.',
    },
  },
};
