import type { en } from './en';
import type { TranslationShape } from './types';

export const pt: TranslationShape<typeof en> = {
  app: {
    name: 'CareDeck',
  },
  common: {
    retry: 'Tentar novamente',
    loading: 'A carregar…',
    notProvided: 'Não indicado',
    showHide: 'Mostrar ou ocultar caracteres',
    clear: 'Limpar',
    notAvailable: 'N/D',
    tagInputHint: 'Prima Enter para adicionar uma etiqueta',
    removeTag: 'Remover a etiqueta {{tag}}',
    closeNotification: 'Fechar a notificação',
    pagination: {
      first: 'Primeira página',
      previous: 'Página anterior',
      next: 'Página seguinte',
      last: 'Última página',
    },
  },
  errors: {
    backend: 'Erro de comunicação com o servidor!',
    network: 'Não foi possível contactar o servidor. Verifique a sua ligação e tente novamente.',
    rateLimited: 'Demasiadas tentativas. Aguarde um momento e tente novamente.',
    server: 'O servidor não conseguiu concluir o pedido. Tente novamente mais tarde.',
    unexpected: 'Ocorreu algo inesperado. Tente novamente.',
  },
  validation: {
    required: 'Este campo é obrigatório.',
    email: 'Introduza um endereço de e-mail válido.',
    code: 'O código deve ter 6 dígitos.',
    passwordWeak:
      'Use pelo menos {{min}} caracteres e combine pelo menos três tipos: minúsculas, maiúsculas, dígitos, símbolos.',
    phone: 'Introduza um número de telefone válido.',
    maxLength: 'Use no máximo {{max}} caracteres.',
    timeZone: 'Escolha um fuso horário válido.',
    dateFormat: 'Introduza a data como DD-MM-AAAA, DD.MM.AAAA, DD/MM/AAAA, AAAA-MM-DD ou DD/MM/AA.',
    dateImpossible: 'Este dia não existe.',
    dateBeforeMin: 'A data deve ser igual ou posterior a {{min}}.',
    dateAfterMax: 'A data deve ser igual ou anterior a {{max}}.',
  },
  auth: {
    email: 'E-mail',
    password: 'Palavra-passe',
    signIn: 'Iniciar sessão',
    signInTitle: 'Iniciar sessão no CareDeck',
    signInSubtitle: 'Use o endereço de e-mail e a palavra-passe da sua conta CareDeck.',
    forgotPassword: 'Esqueceu-se da palavra-passe?',
    createAccount: 'Criar uma conta',
    backToSignIn: 'Voltar ao início de sessão',
    alreadyLoggedIn: 'Já tem sessão iniciada!',
    passwordsDoNotMatch: 'As palavras-passe não coincidem. Tente novamente.',
    passwordExpiredTitle: 'Palavra-passe expirada',
    passwordExpiredMessage:
      'A sua palavra-passe expira automaticamente ao fim de 3 meses, reponha a palavra-passe para iniciar sessão',
    newPasswordLabel: 'Nova palavra-passe',
    confirmPasswordLabel: 'Confirmar palavra-passe',
    newPassword: {
      title: 'Escolha uma nova palavra-passe',
      description:
        'A sua conta foi criada com uma palavra-passe temporária. Escolha a sua própria palavra-passe para continuar.',
      submit: 'Definir palavra-passe',
    },
    mfa: {
      title: 'Autenticação de dois fatores',
      description: 'Introduza o código de 6 dígitos apresentado pela sua aplicação de autenticação.',
      code: 'Código de autenticação',
      submit: 'Verificar',
    },
    hipaa: {
      title: 'Consentimento HIPAA',
      intro:
        'O CareDeck dá-lhe acesso a informações de saúde protegidas (PHI). Antes de continuar, leia e aceite o seguinte.',
      point1:
        'Só acedo às informações dos doentes quando precisar delas para prestar cuidados ou fazer o meu trabalho.',
      point2:
        'Não partilho a minha conta e mantenho confidenciais as informações que vejo, de acordo com a HIPAA e as políticas da minha organização.',
      point3:
        'Compreendo que os meus acessos são registados e auditados e que a utilização indevida pode levar à perda de acesso e a consequências legais.',
      point4: 'Termino a sessão ou bloqueio o meu dispositivo quando o deixo sem vigilância.',
      accept: 'Aceitar',
      decline: 'Recusar e terminar sessão',
    },
    forgot: {
      title: 'Repor a palavra-passe',
      description:
        'Introduza o endereço de e-mail da sua conta. Enviaremos um código de 6 dígitos para repor a sua palavra-passe.',
      submit: 'Enviar código',
    },
    reset: {
      title: 'Introduza o código',
      description:
        'Se existir uma conta para {{email}}, foi enviado um código de 6 dígitos. Introduza-o juntamente com a nova palavra-passe.',
      code: 'Código de reposição',
      submit: 'Repor palavra-passe',
      done: 'A sua palavra-passe foi reposta. Inicie sessão com a nova palavra-passe.',
    },
    register: {
      title: 'Criar uma conta',
      givenName: 'Nome próprio',
      familyName: 'Apelido',
      submit: 'Criar conta',
    },
    confirm: {
      title: 'Confirme o seu endereço de e-mail',
      description:
        'Enviámos um código de confirmação de 6 dígitos para {{email}}. Introduza-o para ativar a sua conta.',
      code: 'Código de confirmação',
      submit: 'Confirmar conta',
      done: 'A sua conta está confirmada. Já pode iniciar sessão.',
    },
    legalLinks: 'Informações legais',
    errors: {
      invalidCredentials: 'E-mail ou palavra-passe incorretos.',
      sessionExpired:
        'Este início de sessão expirou. Volte ao formulário de início de sessão e comece de novo.',
      notConfirmed:
        'O seu endereço de e-mail ainda não está confirmado. Redefina a palavra-passe para o confirmar com um código enviado por e-mail.',
      invalidCode: 'Este código não é válido. Verifique-o e tente novamente.',
    },
  },
  nav: {
    label: 'Navegação principal',
    patients: 'Doentes',
    cohorts: 'Coortes',
    settings: 'Definições',
  },
  shell: {
    userMenu: 'Menu do utilizador',
    signOut: 'Terminar sessão',
    settings: 'Definições',
    toggleNavigation: 'Mostrar ou ocultar a navegação',
    footer: '© {{year}} CareDeck. Apenas para membros autorizados das equipas de cuidados.',
    loading: 'A carregar a página…',
    signedInAs: 'Sessão iniciada como {{name}}',
  },
  scope: {
    program: 'Programa',
    enterprise: 'Empresa',
    programScope: 'Sem empresa',
    enterpriseScope: 'Vista de empresa: todos os programas de {{name}}',
    none: 'Nenhum programa disponível',
  },
  search: {
    open: 'Pesquisar páginas',
    placeholder: 'Pesquisar páginas…',
    nothingFound: 'Nenhuma página corresponde à pesquisa.',
    starred: 'Páginas favoritas',
    pages: 'Páginas',
    star: 'Marcar {{page}} como favorita',
    unstar: 'Remover {{page}} dos favoritos',
    starLimit: 'Pode marcar no máximo {{max}} páginas como favoritas.',
    shortcut: 'Ctrl + K',
  },
  theme: {
    label: 'Tema',
    light: 'Claro',
    dark: 'Escuro',
    semiDark: 'Semiescuro',
  },
  languages: {
    label: 'Idioma',
    en: 'English',
    de: 'Deutsch',
    fr: 'Français',
    pt: 'Português',
  },
  patients: {
    title: 'Doentes',
    search: 'Pesquisar doentes',
    searchPlaceholder: 'Nome',
    columns: {
      name: 'Nome',
      dob: 'Data de nascimento',
      sex: 'Sexo',
      status: 'Estado',
      assignedAdmin: 'Responsável',
      created: 'Criado em',
    },
    sex: {
      female: 'Feminino',
      male: 'Masculino',
      other: 'Outro',
      unknown: 'Desconhecido',
    },
    status: {
      active: 'Ativo',
      inactive: 'Inativo',
      pending: 'Pendente',
      discharged: 'Com alta',
    },
    empty: 'Ainda não há doentes.',
    noProgram: 'Ainda não está atribuído a nenhum programa. Peça acesso ao administrador do seu programa.',
    emptySearch: 'Nenhum doente corresponde a “{{search}}”.',
    error: 'Não foi possível carregar os doentes.',
    perPage: 'Linhas por página',
    total: 'Total: {{count}}',
    pagination: 'Páginas da lista de doentes',
  },
  settings: {
    title: 'Definições',
    profile: {
      heading: 'Perfil',
      givenName: 'Nome próprio',
      familyName: 'Apelido',
      jobTitle: 'Cargo',
      about: 'Sobre mim',
      phone: 'Número de telefone',
      timeZone: 'Fuso horário',
      timeZonePlaceholder: 'Escolha um fuso horário',
      save: 'Guardar perfil',
      saved: 'O seu perfil foi guardado.',
    },
    preferences: {
      heading: 'Idioma e tema',
      saved: 'As suas preferências foram guardadas.',
    },
    mfa: {
      heading: 'Autenticação de dois fatores',
      on: 'A autenticação de dois fatores está ativa na sua conta.',
      off: 'A autenticação de dois fatores está desativada. Ative-a para proteger a sua conta com um código de uma aplicação de autenticação.',
      setup: 'Configurar a autenticação de dois fatores',
      instructions:
        'Leia o código QR com a sua aplicação de autenticação, introduza nela a chave ou abra a ligação de configuração neste dispositivo. Depois introduza o código de 6 dígitos apresentado pela aplicação.',
      secret: 'Chave secreta',
      copy: 'Copiar chave',
      copied: 'Chave copiada',
      qrLabel: 'Código QR para configurar a sua aplicação de autenticação',
      qrUnavailable:
        'Não foi possível mostrar o código QR. Introduza a chave na sua aplicação de autenticação.',
      openLink: 'Abrir a ligação de configuração numa aplicação de autenticação deste dispositivo',
      cancel: 'Cancelar',
      code: 'Código de autenticação',
      enable: 'Ativar a autenticação de dois fatores',
      disable: 'Desativar a autenticação de dois fatores',
      enabled: 'A autenticação de dois fatores está agora ativa.',
      disabled: 'A autenticação de dois fatores está agora desativada.',
    },
    password: {
      heading: 'Alterar palavra-passe',
      current: 'Palavra-passe atual',
      new: 'Nova palavra-passe',
      confirm: 'Confirmar nova palavra-passe',
      submit: 'Alterar palavra-passe',
      changed: 'A sua palavra-passe foi alterada.',
    },
  },
  pages: {
    patient: { title: 'Doente' },
    addPatient: { title: 'Adicionar doente' },
    patientSettings: { title: 'Definições do doente' },
    cohort: { title: 'Coorte' },
    cohortPatients: { title: 'Doentes da coorte' },
    notFound: {
      title: 'Página não encontrada',
      message: 'Não existe nenhuma página em {{path}}. Foi levado para a página inicial.',
    },
    notAuthorized: {
      title: 'Sem autorização',
      message: 'Não tem permissão para abrir esta página. Contacte um administrador se precisar de acesso.',
      home: 'Ir para a lista de doentes',
    },
    chunkError: {
      title: 'Esta parte do CareDeck não foi carregada',
      message: 'A ligação pode estar lenta ou foi publicada uma nova versão. Tente novamente.',
    },
    error: {
      title: 'Algo correu mal',
      message: 'Um erro inesperado interrompeu esta página. Recarregue para tentar novamente.',
      reload: 'Recarregar',
    },
  },
  controller: {
    title: 'Área do controlador',
    signInTitle: 'Início de sessão do controlador',
    signInSubtitle: 'Esta área tem contas próprias. As contas das equipas de cuidados não funcionam aqui.',
    signedInAs: 'Sessão iniciada como {{name}}',
    signOut: 'Terminar sessão',
  },
  legal: {
    lastUpdated: 'Última atualização: {{date}}',
    backToSignIn: 'Voltar ao início de sessão',
    terms: {
      title: 'Termos de utilização',
      intro:
        'Estes termos regem a sua utilização do CareDeck, uma consola que ajuda as equipas de cuidados a acompanhar os doentes e a sua adesão à medicação. Ao iniciar sessão, aceita-os.',
      useTitle: 'Quem pode usar o CareDeck',
      use: 'O CareDeck destina-se ao pessoal de organizações que têm um acordo connosco: médicos, coordenadores de cuidados, pessoal de farmácia e da indústria farmacêutica e administradores. Só o pode usar para os cuidados e o acompanhamento dos doentes do seu programa.',
      accountTitle: 'A sua conta',
      account:
        'A sua conta é pessoal. Mantenha a palavra-passe secreta, ative a autenticação de dois fatores e avise de imediato o seu administrador se suspeitar que outra pessoa usou a sua conta.',
      dataTitle: 'Informações dos doentes',
      data: 'As informações dos doentes pertencem aos doentes e à sua organização. Abra apenas o que precisa para o seu trabalho, não as copie para fora do CareDeck sem autorização e cumpra a HIPAA e as políticas da sua organização.',
      availabilityTitle: 'Disponibilidade',
      availability:
        'Trabalhamos para manter o CareDeck disponível e correto, mas ele não substitui o julgamento clínico nem os serviços de emergência. Os alertas e os valores de adesão dependem de dispositivos e redes que podem falhar.',
      changesTitle: 'Alterações',
      changes:
        'Podemos atualizar estes termos. Informaremos na consola sobre alterações importantes antes de entrarem em vigor.',
      contactTitle: 'Contacto',
      contact: 'Questões sobre estes termos: legal@caredeck.example.',
    },
    privacy: {
      title: 'Política de privacidade',
      intro:
        'Esta política explica que informações pessoais o CareDeck trata, porquê e que opções tem. O CareDeck trata as informações dos doentes em nome da sua organização, como parceiro de negócio ao abrigo da HIPAA.',
      collectTitle: 'O que recolhemos',
      collect:
        'Do pessoal: nome, endereço de e-mail, número de telefone, cargo, fuso horário, horas de início e fim de sessão, páginas visitadas e ações realizadas. Dos doentes: as informações demográficas, de medicação, de dispositivos e de adesão que a sua organização introduz ou liga.',
      useTitle: 'Como as usamos',
      use: 'Para fornecer a consola, protegê-la (autenticação, registos de auditoria, prevenção de abusos), dar-lhe apoio e cumprir as nossas obrigações legais. Não vendemos informações pessoais nem as usamos para publicidade.',
      shareTitle: 'Quem as vê',
      share:
        'Apenas o pessoal da sua organização com a função adequada e o nosso próprio pessoal quando precisa de apoiar ou manter o serviço, sob dever de confidencialidade. Os prestadores que alojam o CareDeck agem segundo as nossas instruções.',
      securityTitle: 'Segurança',
      security:
        'As informações são cifradas em trânsito, o acesso é limitado por função e programa, as sessões terminam após inatividade e cada acesso a informações de doentes é registado.',
      retentionTitle: 'Conservação',
      retention:
        'Conservamos as informações enquanto o acordo com a sua organização o exigir e depois eliminamo-las ou devolvemo-las. Os registos de auditoria são conservados durante o tempo exigido por lei.',
      rightsTitle: 'Os seus direitos',
      rights:
        'Pode pedir para consultar, corrigir ou eliminar as suas informações pessoais. Os doentes exercem os seus direitos através do seu prestador de cuidados.',
      contactTitle: 'Contacto',
      contact: 'Questões e pedidos sobre privacidade: privacy@caredeck.example.',
    },
  },
};
