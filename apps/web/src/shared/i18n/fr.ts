import type { en } from './en';
import type { TranslationShape } from './types';

export const fr: TranslationShape<typeof en> = {
  app: {
    name: 'CareDeck',
  },
  common: {
    retry: 'Réessayer',
    loading: 'Chargement…',
    notProvided: 'Non renseigné',
    showHide: 'Afficher ou masquer les caractères',
    clear: 'Effacer',
    notAvailable: 'N/D',
    tagInputHint: 'Appuyez sur Entrée pour ajouter une étiquette',
    removeTag: 'Retirer l’étiquette {{tag}}',
    closeNotification: 'Fermer la notification',
    pagination: {
      first: 'Première page',
      previous: 'Page précédente',
      next: 'Page suivante',
      last: 'Dernière page',
    },
  },
  errors: {
    backend: 'Erreur de communication avec le serveur !',
    network: 'Le serveur est injoignable. Vérifiez votre connexion et réessayez.',
    rateLimited: 'Trop de tentatives. Veuillez patienter un instant puis réessayer.',
    server: 'Le serveur n’a pas pu traiter la demande. Veuillez réessayer plus tard.',
    unexpected: 'Un problème inattendu est survenu. Veuillez réessayer.',
  },
  validation: {
    required: 'Ce champ est obligatoire.',
    email: 'Saisissez une adresse e-mail valide.',
    code: 'Le code doit comporter 6 chiffres.',
    passwordWeak:
      'Utilisez au moins {{min}} caractères et combinez au moins trois types : minuscules, majuscules, chiffres, symboles.',
    phone: 'Saisissez un numéro de téléphone valide.',
    maxLength: 'Utilisez au plus {{max}} caractères.',
    timeZone: 'Choisissez un fuseau horaire valide.',
    dateFormat: 'Saisissez la date au format JJ-MM-AAAA, JJ.MM.AAAA, JJ/MM/AAAA, AAAA-MM-JJ ou JJ/MM/AA.',
    dateImpossible: 'Ce jour n’existe pas.',
    dateBeforeMin: 'La date doit être le {{min}} ou après.',
    dateAfterMax: 'La date doit être le {{max}} ou avant.',
  },
  auth: {
    email: 'E-mail',
    password: 'Mot de passe',
    signIn: 'Se connecter',
    signInTitle: 'Connexion à CareDeck',
    signInSubtitle: 'Utilisez l’adresse e-mail et le mot de passe de votre compte CareDeck.',
    forgotPassword: 'Mot de passe oublié ?',
    createAccount: 'Créer un compte',
    backToSignIn: 'Retour à la connexion',
    alreadyLoggedIn: 'Vous êtes déjà connecté !',
    passwordsDoNotMatch: 'Les mots de passe ne correspondent pas. Veuillez réessayer.',
    passwordExpiredTitle: 'Mot de passe expiré',
    passwordExpiredMessage:
      'Votre mot de passe expire automatiquement au bout de 3 mois, veuillez le réinitialiser pour vous connecter',
    newPasswordLabel: 'Nouveau mot de passe',
    confirmPasswordLabel: 'Confirmer le mot de passe',
    newPassword: {
      title: 'Choisissez un nouveau mot de passe',
      description:
        'Votre compte a été créé avec un mot de passe provisoire. Choisissez votre propre mot de passe pour continuer.',
      submit: 'Définir le mot de passe',
    },
    mfa: {
      title: 'Authentification à deux facteurs',
      description: 'Saisissez le code à 6 chiffres affiché par votre application d’authentification.',
      code: 'Code d’authentification',
      submit: 'Vérifier',
    },
    hipaa: {
      title: 'Consentement HIPAA',
      intro:
        'CareDeck vous donne accès à des informations de santé protégées (PHI). Avant de continuer, veuillez lire et accepter ce qui suit.',
      point1:
        'Je n’accède aux informations des patients que lorsque j’en ai besoin pour les soigner ou pour faire mon travail.',
      point2:
        'Je ne partage pas mon compte et je garde confidentielles les informations que je consulte, conformément à HIPAA et aux règles de mon organisation.',
      point3:
        'Je comprends que mes accès sont journalisés et contrôlés, et qu’un usage abusif peut entraîner la perte de l’accès et des poursuites.',
      point4: 'Je me déconnecte ou je verrouille mon appareil lorsque je le laisse sans surveillance.',
      accept: 'Accepter',
      decline: 'Refuser et se déconnecter',
    },
    forgot: {
      title: 'Réinitialiser votre mot de passe',
      description:
        'Saisissez l’adresse e-mail de votre compte. Nous vous enverrons un code à 6 chiffres pour réinitialiser votre mot de passe.',
      submit: 'Envoyer le code',
    },
    reset: {
      title: 'Saisissez votre code',
      description:
        'Si un compte existe pour {{email}}, un code à 6 chiffres vous a été envoyé. Saisissez-le avec votre nouveau mot de passe.',
      code: 'Code de réinitialisation',
      submit: 'Réinitialiser le mot de passe',
      done: 'Votre mot de passe a été réinitialisé. Connectez-vous avec votre nouveau mot de passe.',
    },
    register: {
      title: 'Créer un compte',
      givenName: 'Prénom',
      familyName: 'Nom',
      submit: 'Créer le compte',
    },
    confirm: {
      title: 'Confirmez votre adresse e-mail',
      description:
        'Nous avons envoyé un code de confirmation à 6 chiffres à {{email}}. Saisissez-le pour activer votre compte.',
      code: 'Code de confirmation',
      submit: 'Confirmer le compte',
      done: 'Votre compte est confirmé. Vous pouvez maintenant vous connecter.',
    },
    legalLinks: 'Informations légales',
    errors: {
      invalidCredentials: 'Adresse e-mail ou mot de passe incorrect.',
      sessionExpired: 'Cette connexion a expiré. Revenez au formulaire de connexion et recommencez.',
      notConfirmed:
        'Votre adresse e-mail n’est pas encore confirmée. Réinitialisez votre mot de passe pour la confirmer avec un code reçu par e-mail.',
      invalidCode: 'Ce code n’est pas valide. Vérifiez-le et réessayez.',
    },
  },
  nav: {
    label: 'Navigation principale',
    patients: 'Patients',
    cohorts: 'Cohortes',
    settings: 'Paramètres',
  },
  shell: {
    userMenu: 'Menu utilisateur',
    signOut: 'Se déconnecter',
    settings: 'Paramètres',
    toggleNavigation: 'Afficher ou masquer la navigation',
    footer: '© {{year}} CareDeck. Réservé aux membres autorisés des équipes de soins.',
    loading: 'Chargement de la page…',
    signedInAs: 'Connecté en tant que {{name}}',
  },
  scope: {
    program: 'Programme',
    enterprise: 'Entreprise',
    programScope: 'Aucune entreprise',
    enterpriseScope: 'Vue entreprise : tous les programmes de {{name}}',
    none: 'Aucun programme disponible',
  },
  search: {
    open: 'Rechercher une page',
    placeholder: 'Rechercher une page…',
    nothingFound: 'Aucune page ne correspond à votre recherche.',
    starred: 'Pages favorites',
    pages: 'Pages',
    star: 'Ajouter {{page}} aux favoris',
    unstar: 'Retirer {{page}} des favoris',
    starLimit: 'Vous pouvez mettre au plus {{max}} pages en favori.',
    shortcut: 'Ctrl + K',
  },
  theme: {
    label: 'Thème',
    light: 'Clair',
    dark: 'Sombre',
    semiDark: 'Semi-sombre',
  },
  languages: {
    label: 'Langue',
    en: 'English',
    de: 'Deutsch',
    fr: 'Français',
    pt: 'Português',
  },
  patients: {
    addPatient: 'Ajouter un patient',
    export: 'Exporter',
    exportTitle: 'Exporter la liste des patients',
    exportStart: 'Du',
    exportEnd: 'Au',
    exportAction: 'Télécharger le tableur',
    exportSuccess: 'Export réussi',
    exportFailed: "Une erreur s'est produite, réessayez plus tard",
    open: 'Ouvrir {{name}}',
    title: 'Patients',
    search: 'Rechercher des patients',
    searchPlaceholder: 'Nom',
    columns: {
      name: 'Nom',
      dob: 'Date de naissance',
      sex: 'Sexe',
      status: 'Statut',
      assignedAdmin: 'Référent',
      created: 'Créé le',
    },
    sex: {
      female: 'Féminin',
      male: 'Masculin',
      other: 'Autre',
      unknown: 'Inconnu',
    },
    status: {
      active: 'Actif',
      inactive: 'Inactif',
      pending: 'En attente',
      discharged: 'Sorti',
    },
    empty: 'Aucun patient pour l’instant.',
    noProgram:
      'Vous n’êtes encore affecté à aucun programme. Demandez l’accès à l’administrateur de votre programme.',
    emptySearch: 'Aucun patient ne correspond à « {{search}} ».',
    error: 'Impossible de charger les patients.',
    perPage: 'Lignes par page',
    total: 'Total : {{count}}',
    pagination: 'Pages de la liste des patients',
  },
  settings: {
    title: 'Paramètres',
    profile: {
      heading: 'Profil',
      givenName: 'Prénom',
      familyName: 'Nom',
      jobTitle: 'Fonction',
      about: 'À propos',
      phone: 'Numéro de téléphone',
      timeZone: 'Fuseau horaire',
      timeZonePlaceholder: 'Choisissez un fuseau horaire',
      save: 'Enregistrer le profil',
      saved: 'Votre profil a été enregistré.',
    },
    preferences: {
      heading: 'Langue et thème',
      saved: 'Vos préférences ont été enregistrées.',
    },
    mfa: {
      heading: 'Authentification à deux facteurs',
      on: 'L’authentification à deux facteurs est activée pour votre compte.',
      off: 'L’authentification à deux facteurs est désactivée. Activez-la pour protéger votre compte avec un code issu d’une application d’authentification.',
      setup: 'Configurer l’authentification à deux facteurs',
      instructions:
        'Scannez le code QR avec votre application d’authentification, saisissez-y la clé ou ouvrez le lien de configuration sur cet appareil. Saisissez ensuite le code à 6 chiffres affiché par l’application.',
      secret: 'Clé secrète',
      copy: 'Copier la clé',
      copied: 'Clé copiée',
      qrLabel: 'Code QR pour configurer votre application d’authentification',
      qrUnavailable:
        'Le code QR n’a pas pu être affiché. Saisissez plutôt la clé dans votre application d’authentification.',
      openLink: 'Ouvrir le lien de configuration dans une application d’authentification de cet appareil',
      cancel: 'Annuler',
      code: 'Code d’authentification',
      enable: 'Activer l’authentification à deux facteurs',
      disable: 'Désactiver l’authentification à deux facteurs',
      enabled: 'L’authentification à deux facteurs est maintenant activée.',
      disabled: 'L’authentification à deux facteurs est maintenant désactivée.',
    },
    password: {
      heading: 'Changer le mot de passe',
      current: 'Mot de passe actuel',
      new: 'Nouveau mot de passe',
      confirm: 'Confirmer le nouveau mot de passe',
      submit: 'Changer le mot de passe',
      changed: 'Votre mot de passe a été modifié.',
    },
  },
  pages: {
    medRec: { title: 'Conciliation médicamenteuse' },
    patient: { title: 'Patient' },
    addPatient: { title: 'Ajouter un patient' },
    patientSettings: { title: 'Paramètres du patient' },
    cohort: { title: 'Cohorte' },
    cohortPatients: { title: 'Patients de la cohorte' },
    notFound: {
      title: 'Page introuvable',
      message: 'Il n’existe aucune page à l’adresse {{path}}. Vous avez été redirigé vers la page d’accueil.',
    },
    notAuthorized: {
      title: 'Accès non autorisé',
      message:
        'Vous n’avez pas l’autorisation d’ouvrir cette page. Adressez-vous à un administrateur si vous avez besoin d’y accéder.',
      home: 'Aller à la liste des patients',
    },
    chunkError: {
      title: 'Cette partie de CareDeck ne s’est pas chargée',
      message: 'La connexion est peut-être lente ou une nouvelle version a été publiée. Veuillez réessayer.',
    },
    error: {
      title: 'Un problème est survenu',
      message: 'Une erreur inattendue a interrompu cette page. Rechargez-la pour réessayer.',
      reload: 'Recharger',
    },
  },
  controller: {
    title: 'Espace contrôleur',
    signInTitle: 'Connexion contrôleur',
    signInSubtitle:
      'Cet espace a ses propres comptes. Les comptes des équipes de soins ne fonctionnent pas ici.',
    signedInAs: 'Connecté en tant que {{name}}',
    signOut: 'Se déconnecter',
  },
  legal: {
    lastUpdated: 'Dernière mise à jour : {{date}}',
    backToSignIn: 'Retour à la connexion',
    terms: {
      title: 'Conditions d’utilisation',
      intro:
        'Ces conditions régissent votre utilisation de CareDeck, une console qui aide les équipes de soins à suivre les patients et leur observance médicamenteuse. En vous connectant, vous les acceptez.',
      useTitle: 'Qui peut utiliser CareDeck',
      use: 'CareDeck est destiné au personnel des organisations ayant conclu un accord avec nous : médecins, coordinateurs de soins, personnel de pharmacie et de l’industrie pharmaceutique, administrateurs. Vous ne pouvez l’utiliser que pour les soins et le suivi des patients de votre programme.',
      accountTitle: 'Votre compte',
      account:
        'Votre compte est personnel. Gardez votre mot de passe secret, activez l’authentification à deux facteurs et prévenez immédiatement votre administrateur si vous pensez que quelqu’un d’autre a utilisé votre compte.',
      dataTitle: 'Informations sur les patients',
      data: 'Les informations sur les patients appartiennent aux patients et à votre organisation. N’ouvrez que ce dont vous avez besoin pour votre travail, ne les copiez pas hors de CareDeck sans autorisation, et respectez HIPAA ainsi que les règles de votre organisation.',
      availabilityTitle: 'Disponibilité',
      availability:
        'Nous veillons à ce que CareDeck soit disponible et exact, mais il ne remplace ni le jugement clinique ni les services d’urgence. Les alertes et les chiffres d’observance dépendent d’appareils et de réseaux qui peuvent tomber en panne.',
      changesTitle: 'Modifications',
      changes:
        'Nous pouvons mettre à jour ces conditions. Nous vous informerons des changements importants dans la console avant leur entrée en vigueur.',
      contactTitle: 'Contact',
      contact: 'Questions sur ces conditions : legal@caredeck.example.',
    },
    privacy: {
      title: 'Politique de confidentialité',
      intro:
        'Cette politique explique quelles informations personnelles CareDeck traite, pourquoi, et quels choix s’offrent à vous. CareDeck traite les informations des patients pour le compte de votre organisation en tant que partenaire commercial au sens de HIPAA.',
      collectTitle: 'Ce que nous collectons',
      collect:
        'Pour le personnel : nom, adresse e-mail, numéro de téléphone, fonction, fuseau horaire, heures de connexion et de déconnexion, pages consultées et actions effectuées. Pour les patients : les informations démographiques, de traitement, d’appareils et d’observance que votre organisation saisit ou connecte.',
      useTitle: 'Comment nous les utilisons',
      use: 'Pour fournir la console, la sécuriser (authentification, journaux d’audit, prévention des abus), vous assister et respecter nos obligations légales. Nous ne vendons pas d’informations personnelles et ne les utilisons pas à des fins publicitaires.',
      shareTitle: 'Qui y a accès',
      share:
        'Uniquement le personnel de votre organisation disposant du rôle adéquat, et notre propre personnel lorsqu’il doit assister ou maintenir le service, sous obligation de confidentialité. Les prestataires qui hébergent CareDeck agissent selon nos instructions.',
      securityTitle: 'Sécurité',
      security:
        'Les informations sont chiffrées en transit, l’accès est limité par rôle et par programme, les sessions se terminent après une période d’inactivité et chaque accès aux informations des patients est journalisé.',
      retentionTitle: 'Conservation',
      retention:
        'Nous conservons les informations aussi longtemps que l’exige l’accord avec votre organisation, puis nous les supprimons ou les restituons. Les journaux d’audit sont conservés aussi longtemps que la loi l’exige.',
      rightsTitle: 'Vos droits',
      rights:
        'Vous pouvez demander à consulter, corriger ou supprimer vos informations personnelles. Les patients exercent leurs droits auprès de leur prestataire de soins.',
      contactTitle: 'Contact',
      contact: 'Questions et demandes relatives à la confidentialité : privacy@caredeck.example.',
    },
  },
};
