import {
  type CreateOrderFormBody,
  orderFormsContract as c,
  type ResendOrderFormBody,
  type SendOrderFormBody,
} from '@caredeck/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/api-client';

const patientParams = (programId: number, patientId: number) => ({
  programId: String(programId),
  userId: String(patientId),
});
const key = (patientId: number) => ['order-forms', patientId];

/** GET {P}/users/{id}/order-form: one page of the patient's forms, newest first, with their sends. */
export function useOrderForms(programId: number, patientId: number, page: number) {
  return useQuery({
    queryKey: [...key(patientId), 'list', programId, page],
    queryFn: ({ signal }) =>
      api.call(
        c.list,
        { params: patientParams(programId, patientId), query: { page: String(page), per_page: '10' } },
        { signal },
      ),
    placeholderData: keepPreviousData,
    enabled: programId > 0 && patientId > 0,
  });
}

/** GET {P}/users/{id}/order-form/forms: the templates with what the record knows and what is missing. */
export function useOrderFormTemplates(programId: number, patientId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...key(patientId), 'templates', programId],
    queryFn: ({ signal }) =>
      api.call(c.patientTemplates, { params: patientParams(programId, patientId) }, { signal }),
    enabled: enabled && programId > 0 && patientId > 0,
  });
}

export function useCreateOrderForm(programId: number, patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateOrderFormBody) =>
      api.call(c.create, { params: patientParams(programId, patientId), body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: key(patientId) }),
  });
}

export function useSendOrderForm(programId: number, patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SendOrderFormBody) =>
      api.call(c.send, { params: patientParams(programId, patientId), body }),
    onSuccess: () => void client.invalidateQueries({ queryKey: key(patientId) }),
  });
}

export function useResendOrderForm(programId: number, patientId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: number; body: ResendOrderFormBody }) =>
      api.call(c.resend, {
        params: { ...patientParams(programId, patientId), id: String(input.id) },
        body: input.body,
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: key(patientId) }),
  });
}

/** Saves the form's PDF (rendered on the server first if the form was made without one). */
export function downloadOrderFormPdf(programId: number, patientId: number, formId: number) {
  return api.download(c.pdf, { params: { ...patientParams(programId, patientId), id: String(formId) } });
}
