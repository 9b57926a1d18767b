import { type FeatureTexts, registerTexts } from '../../shared/i18n';

const en = {
  lastDays: 'The last {{days}} days, live',
  series: {
    alerts: 'Alerts raised',
    readings: 'Readings',
    doses: 'Doses taken',
    enrolments: 'Patients enrolled',
  },
  tiles: {
    openAlerts: 'Open alerts',
    vitalAlerts: 'Vital-sign alerts',
    patientsWithAlerts: 'Patients with alerts',
    patients: 'Patients',
    doses: 'Doses taken',
    missed: 'Patients missing doses',
    lowPods: 'Patients with low pods',
    lowAdherence: 'Patients with low adherence',
  },
  charts: {
    alerts: 'Alerts raised per day ({{total}})',
    readings: 'Readings per day ({{total}})',
    doses: 'Doses taken per day ({{total}})',
    enrolments: 'Patients enrolled per day ({{total}})',
  },
};

export const dashboardTexts: FeatureTexts<typeof en> = registerTexts('dashboards', {
  en,
  de: {
    lastDays: 'Die letzten {{days}} Tage, live',
    series: {
      alerts: 'Ausgelöste Alarme',
      readings: 'Messungen',
      doses: 'Eingenommene Dosen',
      enrolments: 'Aufgenommene Patienten',
    },
    tiles: {
      openAlerts: 'Offene Alarme',
      vitalAlerts: 'Vitalwert-Alarme',
      patientsWithAlerts: 'Patienten mit Alarmen',
      patients: 'Patienten',
      doses: 'Eingenommene Dosen',
      missed: 'Patienten mit verpassten Dosen',
      lowPods: 'Patienten mit leeren Pods',
      lowAdherence: 'Patienten mit niedriger Adhärenz',
    },
    charts: {
      alerts: 'Ausgelöste Alarme pro Tag ({{total}})',
      readings: 'Messungen pro Tag ({{total}})',
      doses: 'Eingenommene Dosen pro Tag ({{total}})',
      enrolments: 'Aufgenommene Patienten pro Tag ({{total}})',
    },
  },
  fr: {
    lastDays: 'Les {{days}} derniers jours, en direct',
    series: {
      alerts: 'Alertes levées',
      readings: 'Mesures',
      doses: 'Doses prises',
      enrolments: 'Patients inscrits',
    },
    tiles: {
      openAlerts: 'Alertes ouvertes',
      vitalAlerts: 'Alertes de signes vitaux',
      patientsWithAlerts: 'Patients avec alertes',
      patients: 'Patients',
      doses: 'Doses prises',
      missed: 'Patients avec doses manquées',
      lowPods: 'Patients aux capsules presque vides',
      lowAdherence: 'Patients à faible observance',
    },
    charts: {
      alerts: 'Alertes levées par jour ({{total}})',
      readings: 'Mesures par jour ({{total}})',
      doses: 'Doses prises par jour ({{total}})',
      enrolments: 'Patients inscrits par jour ({{total}})',
    },
  },
  pt: {
    lastDays: 'Os últimos {{days}} dias, ao vivo',
    series: {
      alerts: 'Alertas gerados',
      readings: 'Medições',
      doses: 'Doses tomadas',
      enrolments: 'Doentes inscritos',
    },
    tiles: {
      openAlerts: 'Alertas abertos',
      vitalAlerts: 'Alertas de sinais vitais',
      patientsWithAlerts: 'Doentes com alertas',
      patients: 'Doentes',
      doses: 'Doses tomadas',
      missed: 'Doentes com doses falhadas',
      lowPods: 'Doentes com cápsulas a acabar',
      lowAdherence: 'Doentes com adesão baixa',
    },
    charts: {
      alerts: 'Alertas gerados por dia ({{total}})',
      readings: 'Medições por dia ({{total}})',
      doses: 'Doses tomadas por dia ({{total}})',
      enrolments: 'Doentes inscritos por dia ({{total}})',
    },
  },
});

declare module '../../shared/i18n/resources' {
  interface Resources {
    dashboards: typeof en;
  }
}
