import { type FeatureTexts, registerTexts } from '../../shared/i18n';

const en = {
  back: 'Back to the patient',
  titles: {
    servings: 'Servings and doses',
    activities: 'Activity',
    activitiesRange: 'Activity over a period',
    sleep: 'Sleep',
  },
  period: 'Period',
  lastDays: 'Last {{days}} days',
  from: 'From',
  to: 'To',
  invalidPeriod: 'Choose a start on or before the end, at most 366 days.',
  loading: 'Loading…',
  loadError: 'The data could not be loaded.',
  retry: 'Try again',
  empty: 'Nothing was recorded in this period.',
  servings: {
    pods: 'Pods',
    noPods: 'The patient has no pods.',
    barcode: 'Barcode',
    remaining: 'Servings left',
    of: '{{left}} of {{total}}',
    perDay: 'Servings taken per day',
    servings: 'Servings',
    total: '{{doses}} doses taken in this period.',
  },
  activities: {
    steps: 'Steps per day',
    active: 'Active minutes per day',
    totals: '{{steps}} steps and {{minutes}} active minutes over {{days}} measured days.',
  },
  sleep: {
    minutes: 'Sleep per night',
    average: 'On average {{time}} a night.',
  },
};

export const dataViewsTexts: FeatureTexts<typeof en> = registerTexts('dataViews', {
  en,
  de: {
    back: 'Zurück zum Patienten',
    titles: {
      servings: 'Portionen und Dosen',
      activities: 'Aktivität',
      activitiesRange: 'Aktivität in einem Zeitraum',
      sleep: 'Schlaf',
    },
    period: 'Zeitraum',
    lastDays: 'Letzte {{days}} Tage',
    from: 'Von',
    to: 'Bis',
    invalidPeriod: 'Wählen Sie einen Beginn vor oder am Ende, höchstens 366 Tage.',
    loading: 'Wird geladen…',
    loadError: 'Die Daten konnten nicht geladen werden.',
    retry: 'Erneut versuchen',
    empty: 'In diesem Zeitraum wurde nichts erfasst.',
    servings: {
      pods: 'Pods',
      noPods: 'Der Patient hat keine Pods.',
      barcode: 'Barcode',
      remaining: 'Verbleibende Portionen',
      of: '{{left}} von {{total}}',
      perDay: 'Eingenommene Portionen pro Tag',
      servings: 'Portionen',
      total: '{{doses}} Dosen in diesem Zeitraum eingenommen.',
    },
    activities: {
      steps: 'Schritte pro Tag',
      active: 'Aktive Minuten pro Tag',
      totals: '{{steps}} Schritte und {{minutes}} aktive Minuten an {{days}} gemessenen Tagen.',
    },
    sleep: {
      minutes: 'Schlaf pro Nacht',
      average: 'Im Durchschnitt {{time}} pro Nacht.',
    },
  },
  fr: {
    back: 'Retour au patient',
    titles: {
      servings: 'Portions et doses',
      activities: 'Activité',
      activitiesRange: 'Activité sur une période',
      sleep: 'Sommeil',
    },
    period: 'Période',
    lastDays: '{{days}} derniers jours',
    from: 'Du',
    to: 'Au',
    invalidPeriod: 'Choisissez un début avant ou égal à la fin, 366 jours au plus.',
    loading: 'Chargement…',
    loadError: 'Les données n’ont pas pu être chargées.',
    retry: 'Réessayer',
    empty: 'Rien n’a été enregistré sur cette période.',
    servings: {
      pods: 'Pods',
      noPods: 'Le patient n’a aucun pod.',
      barcode: 'Code-barres',
      remaining: 'Portions restantes',
      of: '{{left}} sur {{total}}',
      perDay: 'Portions prises par jour',
      servings: 'Portions',
      total: '{{doses}} doses prises sur cette période.',
    },
    activities: {
      steps: 'Pas par jour',
      active: 'Minutes actives par jour',
      totals: '{{steps}} pas et {{minutes}} minutes actives sur {{days}} jours mesurés.',
    },
    sleep: {
      minutes: 'Sommeil par nuit',
      average: 'En moyenne {{time}} par nuit.',
    },
  },
  pt: {
    back: 'Voltar ao paciente',
    titles: {
      servings: 'Porções e doses',
      activities: 'Atividade',
      activitiesRange: 'Atividade num período',
      sleep: 'Sono',
    },
    period: 'Período',
    lastDays: 'Últimos {{days}} dias',
    from: 'De',
    to: 'Até',
    invalidPeriod: 'Escolha um início igual ou anterior ao fim, no máximo 366 dias.',
    loading: 'A carregar…',
    loadError: 'Não foi possível carregar os dados.',
    retry: 'Tentar novamente',
    empty: 'Nada foi registado neste período.',
    servings: {
      pods: 'Pods',
      noPods: 'O paciente não tem pods.',
      barcode: 'Código de barras',
      remaining: 'Porções restantes',
      of: '{{left}} de {{total}}',
      perDay: 'Porções tomadas por dia',
      servings: 'Porções',
      total: '{{doses}} doses tomadas neste período.',
    },
    activities: {
      steps: 'Passos por dia',
      active: 'Minutos ativos por dia',
      totals: '{{steps}} passos e {{minutes}} minutos ativos em {{days}} dias medidos.',
    },
    sleep: {
      minutes: 'Sono por noite',
      average: 'Em média {{time}} por noite.',
    },
  },
});

declare module '../../shared/i18n/resources' {
  interface Resources {
    dataViews: typeof en;
  }
}
