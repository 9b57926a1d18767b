import type { en } from './en';
import type { TranslationShape } from './types';

export const de: TranslationShape<typeof en> = {
  app: {
    name: 'CareDeck',
  },
  common: {
    retry: 'Erneut versuchen',
    loading: 'Wird geladen…',
    notProvided: 'Keine Angabe',
    showHide: 'Zeichen ein- oder ausblenden',
    clear: 'Leeren',
    notAvailable: 'k. A.',
    tagInputHint: 'Eingabetaste drücken, um ein Schlagwort hinzuzufügen',
    removeTag: 'Schlagwort {{tag}} entfernen',
    closeNotification: 'Benachrichtigung schließen',
    pagination: {
      first: 'Erste Seite',
      previous: 'Vorherige Seite',
      next: 'Nächste Seite',
      last: 'Letzte Seite',
    },
  },
  errors: {
    backend: 'Fehler bei der Kommunikation mit dem Server!',
    network: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    rateLimited: 'Zu viele Versuche. Bitte warten Sie einen Moment und versuchen Sie es erneut.',
    server: 'Der Server konnte die Anfrage nicht ausführen. Bitte versuchen Sie es später erneut.',
    unexpected: 'Etwas Unerwartetes ist passiert. Bitte versuchen Sie es erneut.',
  },
  validation: {
    required: 'Dieses Feld ist erforderlich.',
    email: 'Geben Sie eine gültige E-Mail-Adresse ein.',
    code: 'Der Code muss aus 6 Ziffern bestehen.',
    passwordWeak:
      'Verwenden Sie mindestens {{min}} Zeichen und mindestens drei Arten: Kleinbuchstaben, Großbuchstaben, Ziffern, Sonderzeichen.',
    phone: 'Geben Sie eine gültige Telefonnummer ein.',
    maxLength: 'Verwenden Sie höchstens {{max}} Zeichen.',
    timeZone: 'Wählen Sie eine gültige Zeitzone.',
    dateFormat: 'Geben Sie das Datum als TT-MM-JJJJ, TT.MM.JJJJ, TT/MM/JJJJ, JJJJ-MM-TT oder TT/MM/JJ ein.',
    dateImpossible: 'Diesen Tag gibt es nicht.',
    dateBeforeMin: 'Das Datum darf nicht vor dem {{min}} liegen.',
    dateAfterMax: 'Das Datum darf nicht nach dem {{max}} liegen.',
  },
  auth: {
    email: 'E-Mail',
    password: 'Passwort',
    signIn: 'Anmelden',
    signInTitle: 'Bei CareDeck anmelden',
    signInSubtitle: 'Verwenden Sie die E-Mail-Adresse und das Passwort Ihres CareDeck-Kontos.',
    forgotPassword: 'Passwort vergessen?',
    createAccount: 'Konto erstellen',
    backToSignIn: 'Zurück zur Anmeldung',
    alreadyLoggedIn: 'Sie sind bereits angemeldet!',
    passwordsDoNotMatch: 'Die Passwörter stimmen nicht überein. Bitte versuchen Sie es erneut.',
    passwordExpiredTitle: 'Passwort abgelaufen',
    passwordExpiredMessage:
      'Ihr Passwort läuft automatisch nach 3 Monaten ab. Bitte setzen Sie Ihr Passwort zurück, um sich anzumelden.',
    newPasswordLabel: 'Neues Passwort',
    confirmPasswordLabel: 'Passwort bestätigen',
    newPassword: {
      title: 'Neues Passwort wählen',
      description:
        'Ihr Konto wurde mit einem vorläufigen Passwort angelegt. Wählen Sie ein eigenes Passwort, um fortzufahren.',
      submit: 'Passwort festlegen',
    },
    mfa: {
      title: 'Zwei-Faktor-Authentifizierung',
      description: 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.',
      code: 'Authentifizierungscode',
      submit: 'Bestätigen',
    },
    hipaa: {
      title: 'HIPAA-Einwilligung',
      intro:
        'CareDeck gibt Ihnen Zugriff auf geschützte Gesundheitsdaten (PHI). Bitte lesen und akzeptieren Sie Folgendes, bevor Sie fortfahren.',
      point1:
        'Ich greife nur dann auf Patientendaten zu, wenn ich sie für die Versorgung oder meine Arbeit benötige.',
      point2:
        'Ich gebe mein Konto nicht weiter und behandle die Daten, die ich sehe, vertraulich – gemäß HIPAA und den Richtlinien meiner Organisation.',
      point3:
        'Mir ist bewusst, dass meine Zugriffe protokolliert und geprüft werden und dass Missbrauch zum Entzug des Zugangs und zu rechtlichen Folgen führen kann.',
      point4: 'Ich melde mich ab oder sperre mein Gerät, wenn ich es unbeaufsichtigt lasse.',
      accept: 'Akzeptieren',
      decline: 'Ablehnen und abmelden',
    },
    forgot: {
      title: 'Passwort zurücksetzen',
      description:
        'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen einen 6-stelligen Code zum Zurücksetzen Ihres Passworts.',
      submit: 'Code senden',
    },
    reset: {
      title: 'Code eingeben',
      description:
        'Falls ein Konto für {{email}} existiert, ist ein 6-stelliger Code unterwegs. Geben Sie ihn zusammen mit Ihrem neuen Passwort ein.',
      code: 'Code zum Zurücksetzen',
      submit: 'Passwort zurücksetzen',
      done: 'Ihr Passwort wurde zurückgesetzt. Bitte melden Sie sich mit Ihrem neuen Passwort an.',
    },
    register: {
      title: 'Konto erstellen',
      givenName: 'Vorname',
      familyName: 'Nachname',
      submit: 'Konto erstellen',
    },
    confirm: {
      title: 'E-Mail-Adresse bestätigen',
      description:
        'Wir haben einen 6-stelligen Bestätigungscode an {{email}} gesendet. Geben Sie ihn ein, um Ihr Konto zu aktivieren.',
      code: 'Bestätigungscode',
      submit: 'Konto bestätigen',
      done: 'Ihr Konto ist bestätigt. Sie können sich jetzt anmelden.',
    },
    legalLinks: 'Rechtliche Hinweise',
    errors: {
      invalidCredentials: 'E-Mail-Adresse oder Passwort ist falsch.',
      sessionExpired:
        'Diese Anmeldung ist abgelaufen. Kehren Sie zum Anmeldeformular zurück und beginnen Sie erneut.',
      notConfirmed:
        'Ihre E-Mail-Adresse ist noch nicht bestätigt. Setzen Sie Ihr Passwort zurück, um sie mit einem per E-Mail gesendeten Code zu bestätigen.',
      invalidCode: 'Dieser Code ist ungültig. Prüfen Sie ihn und versuchen Sie es erneut.',
    },
  },
  nav: {
    label: 'Hauptnavigation',
    patients: 'Patienten',
    cohorts: 'Kohorten',
    settings: 'Einstellungen',
  },
  shell: {
    userMenu: 'Benutzermenü',
    signOut: 'Abmelden',
    settings: 'Einstellungen',
    toggleNavigation: 'Navigation ein- oder ausblenden',
    footer: '© {{year}} CareDeck. Nur für berechtigte Mitglieder von Versorgungsteams.',
    loading: 'Seite wird geladen…',
    signedInAs: 'Angemeldet als {{name}}',
  },
  scope: {
    program: 'Programm',
    enterprise: 'Unternehmen',
    programScope: 'Kein Unternehmen',
    enterpriseScope: 'Unternehmensansicht: alle Programme von {{name}}',
    none: 'Kein Programm verfügbar',
  },
  search: {
    open: 'Seiten suchen',
    placeholder: 'Seiten suchen…',
    nothingFound: 'Keine Seite passt zu Ihrer Suche.',
    starred: 'Markierte Seiten',
    pages: 'Seiten',
    star: '{{page}} markieren',
    unstar: 'Markierung von {{page}} entfernen',
    starLimit: 'Sie können höchstens {{max}} Seiten markieren.',
    shortcut: 'Strg + K',
  },
  theme: {
    label: 'Design',
    light: 'Hell',
    dark: 'Dunkel',
    semiDark: 'Halbdunkel',
  },
  languages: {
    label: 'Sprache',
    en: 'English',
    de: 'Deutsch',
    fr: 'Français',
    pt: 'Português',
  },
  patients: {
    addPatient: 'Patient aufnehmen',
    export: 'Exportieren',
    exportTitle: 'Patientenliste exportieren',
    exportStart: 'Von',
    exportEnd: 'Bis',
    exportAction: 'Tabelle herunterladen',
    exportSuccess: 'Export erfolgreich',
    exportFailed: 'Etwas ist schiefgelaufen, bitte später erneut versuchen',
    open: '{{name}} öffnen',
    title: 'Patienten',
    search: 'Patienten suchen',
    searchPlaceholder: 'Name',
    columns: {
      name: 'Name',
      dob: 'Geburtsdatum',
      sex: 'Geschlecht',
      status: 'Status',
      assignedAdmin: 'Zuständige Fachkraft',
      created: 'Angelegt',
    },
    sex: {
      female: 'Weiblich',
      male: 'Männlich',
      other: 'Divers',
      unknown: 'Unbekannt',
    },
    status: {
      active: 'Aktiv',
      inactive: 'Inaktiv',
      pending: 'Ausstehend',
      discharged: 'Entlassen',
    },
    empty: 'Noch keine Patienten.',
    noProgram: 'Sie sind noch keinem Programm zugeordnet. Bitten Sie Ihre Programmadministration um Zugang.',
    emptySearch: 'Keine Patienten passen zu „{{search}}“.',
    error: 'Die Patienten konnten nicht geladen werden.',
    perPage: 'Zeilen pro Seite',
    total: 'Gesamt: {{count}}',
    pagination: 'Seiten der Patientenliste',
  },
  settings: {
    title: 'Einstellungen',
    profile: {
      heading: 'Profil',
      givenName: 'Vorname',
      familyName: 'Nachname',
      jobTitle: 'Titel',
      about: 'Über mich',
      phone: 'Telefonnummer',
      timeZone: 'Zeitzone',
      timeZonePlaceholder: 'Zeitzone wählen',
      save: 'Profil speichern',
      saved: 'Ihr Profil wurde gespeichert.',
    },
    preferences: {
      heading: 'Sprache und Design',
      saved: 'Ihre Einstellungen wurden gespeichert.',
    },
    mfa: {
      heading: 'Zwei-Faktor-Authentifizierung',
      on: 'Die Zwei-Faktor-Authentifizierung ist für Ihr Konto aktiviert.',
      off: 'Die Zwei-Faktor-Authentifizierung ist deaktiviert. Aktivieren Sie sie, um Ihr Konto mit einem Code aus einer Authenticator-App zu schützen.',
      setup: 'Zwei-Faktor-Authentifizierung einrichten',
      instructions:
        'Scannen Sie den QR-Code mit Ihrer Authenticator-App, geben Sie den Schlüssel dort ein oder öffnen Sie den Einrichtungslink auf diesem Gerät. Geben Sie dann den 6-stelligen Code der App ein.',
      secret: 'Geheimer Schlüssel',
      copy: 'Schlüssel kopieren',
      copied: 'Schlüssel kopiert',
      qrLabel: 'QR-Code zur Einrichtung Ihrer Authenticator-App',
      qrUnavailable:
        'Der QR-Code konnte nicht angezeigt werden. Geben Sie den Schlüssel stattdessen in Ihre Authenticator-App ein.',
      openLink: 'Einrichtungslink in einer Authenticator-App auf diesem Gerät öffnen',
      cancel: 'Abbrechen',
      code: 'Authentifizierungscode',
      enable: 'Zwei-Faktor-Authentifizierung aktivieren',
      disable: 'Zwei-Faktor-Authentifizierung deaktivieren',
      enabled: 'Die Zwei-Faktor-Authentifizierung ist jetzt aktiviert.',
      disabled: 'Die Zwei-Faktor-Authentifizierung ist jetzt deaktiviert.',
    },
    password: {
      heading: 'Passwort ändern',
      current: 'Aktuelles Passwort',
      new: 'Neues Passwort',
      confirm: 'Neues Passwort bestätigen',
      submit: 'Passwort ändern',
      changed: 'Ihr Passwort wurde geändert.',
    },
  },
  pages: {
    medRec: { title: 'Medikationsabgleich' },
    patient: { title: 'Patient' },
    addPatient: { title: 'Patient aufnehmen' },
    patientSettings: { title: 'Patienteneinstellungen' },
    cohort: { title: 'Kohorte' },
    cohortPatients: { title: 'Patienten der Kohorte' },
    notFound: {
      title: 'Seite nicht gefunden',
      message: 'Unter {{path}} gibt es keine Seite. Sie wurden zur Startseite weitergeleitet.',
    },
    notAuthorized: {
      title: 'Keine Berechtigung',
      message:
        'Sie haben keine Berechtigung, diese Seite zu öffnen. Wenden Sie sich an eine Administratorin oder einen Administrator, wenn Sie Zugriff benötigen.',
      home: 'Zur Patientenliste',
    },
    chunkError: {
      title: 'Dieser Teil von CareDeck wurde nicht geladen',
      message:
        'Die Verbindung ist möglicherweise langsam oder es wurde eine neue Version veröffentlicht. Bitte versuchen Sie es erneut.',
    },
    error: {
      title: 'Etwas ist schiefgelaufen',
      message:
        'Ein unerwarteter Fehler hat diese Seite angehalten. Laden Sie die Seite neu, um es erneut zu versuchen.',
      reload: 'Neu laden',
    },
  },
  controller: {
    title: 'Controller-Bereich',
    signInTitle: 'Controller-Anmeldung',
    signInSubtitle: 'Dieser Bereich hat eigene Konten. Konten von Versorgungsteams funktionieren hier nicht.',
    signedInAs: 'Angemeldet als {{name}}',
    signOut: 'Abmelden',
  },
  legal: {
    lastUpdated: 'Zuletzt aktualisiert: {{date}}',
    backToSignIn: 'Zurück zur Anmeldung',
    terms: {
      title: 'Nutzungsbedingungen',
      intro:
        'Diese Bedingungen regeln Ihre Nutzung von CareDeck, einer Konsole, mit der Versorgungsteams Patienten und deren Therapietreue überwachen. Mit der Anmeldung stimmen Sie ihnen zu.',
      useTitle: 'Wer CareDeck nutzen darf',
      use: 'CareDeck ist für Mitarbeitende von Organisationen bestimmt, die eine Vereinbarung mit uns haben: Ärztinnen und Ärzte, Pflege- und Versorgungskoordination, Apotheken- und Pharmapersonal sowie Administration. Sie dürfen es nur für die Versorgung und Betreuung der Patienten Ihres Programms nutzen.',
      accountTitle: 'Ihr Konto',
      account:
        'Ihr Konto ist persönlich. Halten Sie Ihr Passwort geheim, aktivieren Sie die Zwei-Faktor-Authentifizierung und informieren Sie sofort Ihre Administration, wenn Sie vermuten, dass jemand anderes Ihr Konto benutzt hat.',
      dataTitle: 'Patientendaten',
      data: 'Patientendaten gehören den Patienten und Ihrer Organisation. Öffnen Sie nur, was Sie für Ihre Arbeit benötigen, kopieren Sie nichts ohne Erlaubnis aus CareDeck heraus und befolgen Sie HIPAA sowie die Richtlinien Ihrer Organisation.',
      availabilityTitle: 'Verfügbarkeit',
      availability:
        'Wir sorgen dafür, dass CareDeck verfügbar und korrekt ist, es ersetzt jedoch weder das klinische Urteil noch den Notdienst. Warnungen und Therapietreue-Werte hängen von Geräten und Netzen ab, die ausfallen können.',
      changesTitle: 'Änderungen',
      changes:
        'Wir können diese Bedingungen aktualisieren. Über wichtige Änderungen informieren wir Sie in der Konsole, bevor sie wirksam werden.',
      contactTitle: 'Kontakt',
      contact: 'Fragen zu diesen Bedingungen: legal@caredeck.example.',
    },
    privacy: {
      title: 'Datenschutzerklärung',
      intro:
        'Diese Erklärung beschreibt, welche personenbezogenen Daten CareDeck verarbeitet, zu welchem Zweck und welche Wahlmöglichkeiten Sie haben. CareDeck verarbeitet Patientendaten im Auftrag Ihrer Organisation als HIPAA-Geschäftspartner.',
      collectTitle: 'Was wir erheben',
      collect:
        'Für Mitarbeitende: Name, E-Mail-Adresse, Telefonnummer, Titel, Zeitzone, An- und Abmeldezeiten, besuchte Seiten und ausgeführte Aktionen. Für Patienten: die demografischen, Medikations-, Geräte- und Therapietreuedaten, die Ihre Organisation erfasst oder anbindet.',
      useTitle: 'Wie wir sie verwenden',
      use: 'Um die Konsole bereitzustellen und abzusichern (Authentifizierung, Prüfprotokolle, Missbrauchsschutz), um Sie zu unterstützen und um unsere gesetzlichen Pflichten zu erfüllen. Wir verkaufen keine personenbezogenen Daten und nutzen sie nicht für Werbung.',
      shareTitle: 'Wer sie sieht',
      share:
        'Nur Mitarbeitende Ihrer Organisation mit der passenden Rolle sowie unsere eigenen Mitarbeitenden, wenn sie den Dienst unter Geheimhaltungspflicht betreuen oder warten. Dienstleister, die CareDeck betreiben, handeln nach unseren Weisungen.',
      securityTitle: 'Sicherheit',
      security:
        'Daten werden bei der Übertragung verschlüsselt, der Zugriff ist nach Rolle und Programm beschränkt, Sitzungen enden nach Inaktivität und jeder Zugriff auf Patientendaten wird protokolliert.',
      retentionTitle: 'Aufbewahrung',
      retention:
        'Wir bewahren Daten so lange auf, wie es die Vereinbarung mit Ihrer Organisation verlangt, und löschen oder übergeben sie danach. Prüfprotokolle werden so lange aufbewahrt, wie es das Gesetz verlangt.',
      rightsTitle: 'Ihre Rechte',
      rights:
        'Sie können Auskunft, Berichtigung oder Löschung Ihrer personenbezogenen Daten verlangen. Patienten üben ihre Rechte über ihren Leistungserbringer aus.',
      contactTitle: 'Kontakt',
      contact: 'Fragen und Anliegen zum Datenschutz: privacy@caredeck.example.',
    },
  },
};
