import {
  type AdminDetail,
  AUTO_ROLES,
  LOGO_MAX_BYTES,
  ADMINISTRATION_MESSAGES as M,
  type ProgramType,
  pageOf,
  type StaffRole,
} from '@caredeck/contracts';
import { programAccess } from '../../platform/access/access.queries';
import type { StaffActor } from '../../platform/access/actor';
import { requireProgramRole } from '../../platform/access/program-role';
import { assertBodyRefsInScope } from '../../platform/access/scope';
import { audit } from '../../platform/audit/audit';
import { revokeAllSessionsOf } from '../../platform/auth/sessions';
import type { Database, Queryable } from '../../platform/db/client';
import { isUniqueViolation } from '../../platform/db/errors';
import { AppError } from '../../platform/http/errors';
import type { Realtime } from '../../platform/realtime/realtime';
import { replaceProgramRoles, visibleEnterprises, visiblePrograms } from '../tenancy/tenancy.queries';
import { ADMIN_PROGRAM_ROLES_UPDATED } from '../tenancy/tenancy.service';
import {
  adminDetail,
  administeredEnterpriseIds,
  adminList,
  enterpriseDetail,
  enterpriseHistory,
  getLogo,
  grantRoles,
  insertProgram,
  type LogoOwner,
  physicians,
  programDetail,
  putLogo,
  slugTaken,
  updateAdminAccount,
  updateEnterpriseRow,
  updateProgramRow,
} from './administration.queries';

const ADMIN_ROLES: readonly StaffRole[] = ['admin', 'enterprise_admin'];

/** A picture's type from its first bytes; null for anything that is not PNG, JPEG or WebP. */
export function sniffImage(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (
    bytes.length >= 8 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  )
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 12 &&
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'image/webp';
  return null;
}

/** A logo data URL as stored bytes (checked by content, not by the declared type); 422 `image` otherwise. */
export function decodeLogo(dataUrl: string | null): { contentType: string; bytes: Buffer } | null {
  if (dataUrl === null) return null;
  const comma = dataUrl.indexOf(',');
  const bytes = Buffer.from(dataUrl.slice(comma + 1), 'base64');
  const declared = dataUrl.slice(5, dataUrl.indexOf(';'));
  const actual = sniffImage(bytes);
  if (!actual || actual !== declared || bytes.length > LOGO_MAX_BYTES)
    throw AppError.validation({ image: [M.badImage] });
  return { contentType: actual, bytes };
}

/** A URL-safe slug from a program name ("Northwind Cardiology" → "northwind-cardiology"). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
  return slug.length >= 2 ? slug : `program-${slug || 'new'}`;
}

export type UpdateAdminInput = {
  program_id?: number;
  roles?: string[];
  disabled?: boolean;
  given_name?: string;
  family_name?: string;
  title?: string | null;
  phone_number?: string | null;
};

export function createAdministrationService(deps: { db: Database; realtime: Realtime }) {
  const { db, realtime } = deps;

  async function detailOr404(actor: StaffActor, id: number, q: Queryable = db): Promise<AdminDetail> {
    const found = await adminDetail(q, actor.adminId, id);
    if (!found) throw AppError.notFound();
    return found;
  }

  async function visibleScope(actor: StaffActor) {
    const [programs, enterprises] = await Promise.all([
      visiblePrograms(db, actor.adminId),
      visibleEnterprises(db, actor.adminId),
    ]);
    return { programs, programIds: programs.map((p) => p.id), enterpriseIds: enterprises.map((e) => e.id) };
  }

  async function programDetailOr404(actor: StaffActor, programId: number, q: Queryable = db) {
    const detail = await programDetail(q, actor.adminId, programId);
    if (!detail) throw AppError.notFound();
    return detail;
  }

  return {
    detail: async (actor: StaffActor, id: number) => ({ data: await detailOr404(actor, id) }),

    /**
     * Roles in one program (its administrators), or the account itself: name, contact, disabled (only for
     * whoever administers every program and enterprise the member works in). One transaction; a disabled
     * member's sessions end at once.
     */
    async update(actor: StaffActor, id: number, input: UpdateAdminInput) {
      const target = await detailOr404(actor, id);
      const { program_id: programId, roles, disabled, ...profile } = input;
      const profileChange = Object.values(profile).some((v) => v !== undefined);
      if (id === actor.adminId && disabled) throw AppError.validation({ disabled: [M.selfDisable] });
      if (id === actor.adminId && roles) throw AppError.validation({ roles: [M.selfRoles] });
      if (roles === undefined && disabled === undefined && !profileChange)
        throw AppError.validation({ roles: [M.nothingToChange] });
      let program: { id: number; enterpriseId: number | null } | null = null;
      if (programId !== undefined) {
        const access = await programAccess(db, actor.adminId, programId);
        if (!access) throw AppError.notFound();
        if (!access.roles.some((r) => ADMIN_ROLES.includes(r))) throw AppError.forbidden();
        program = access;
      }
      if ((disabled !== undefined || profileChange) && !target.can_manage)
        throw AppError.forbidden(M.notAdministered);
      const auditProgram = program?.id ?? target.programs[0]?.id ?? null;
      let disabledNow = false;
      const rolesChanged = await db.transaction(async (tx) => {
        let changed = false;
        if (roles && program) {
          // Only staff who work in the program's enterprise (or, without one, in the program) can be given
          // roles there; a foreign id answers exactly like an unknown one.
          await assertBodyRefsInScope(
            tx,
            { programIds: [program.id], enterpriseIds: program.enterpriseId ? [program.enterpriseId] : [] },
            { staff: [id] },
          );
          changed = await replaceProgramRoles(tx, id, program.id, roles);
          if (changed)
            await audit(tx, {
              actorAdminId: actor.adminId,
              programId: program.id,
              action: 'admin.update_program_roles',
              subjectType: 'admin',
              subjectId: id,
              details: { roles },
              ip: actor.ip,
            });
        }
        if (profileChange || disabled !== undefined) {
          await updateAdminAccount(tx, id, {
            givenName: profile.given_name,
            familyName: profile.family_name,
            title: profile.title,
            phoneNumber: profile.phone_number,
            disabled,
          });
          if (profileChange)
            await audit(tx, {
              actorAdminId: actor.adminId,
              programId: auditProgram,
              action: 'admin.update',
              subjectType: 'admin',
              subjectId: id,
              details: {
                fields: Object.keys(profile).filter((k) => profile[k as keyof typeof profile] !== undefined),
              },
              ip: actor.ip,
            });
          if (disabled !== undefined && disabled !== target.disabled) {
            if (disabled) {
              await revokeAllSessionsOf(tx, id, 'disabled');
              disabledNow = true;
            }
            await audit(tx, {
              actorAdminId: actor.adminId,
              programId: auditProgram,
              action: disabled ? 'admin.disable' : 'admin.enable',
              subjectType: 'admin',
              subjectId: id,
              details: { program_ids: target.programs.map((p) => p.id) },
              ip: actor.ip,
            });
          }
        }
        return changed;
      });
      // Sockets follow at once, on every process, before the answer (issue 28 item 6): a disabled member's close,
      // and a member whose roles changed leaves the channels of programs they no longer see.
      if (disabledNow) realtime.disconnectUser(id);
      else if (rolesChanged) await realtime.refreshMemberships(id);
      if (rolesChanged && program)
        realtime.toUser(id, ADMIN_PROGRAM_ROLES_UPDATED, { admin_id: id, program_id: program.id });
      const data = await detailOr404(actor, id);
      const rolesNow = program ? (data.programs.find((p) => p.id === program.id)?.roles ?? []) : null;
      return {
        message: M.adminUpdated,
        id,
        program_id: program?.id ?? null,
        roles: rolesNow ? [...rolesNow].sort() : null,
        data,
      };
    },

    /** GET all-admins: everyone who works where the caller works. A program_id outside that answers 404. */
    async all(
      actor: StaffActor,
      q: {
        page: number;
        per_page: number;
        search: string;
        program_id?: number;
        role?: StaffRole;
        status: 'active' | 'disabled' | 'all';
      },
    ) {
      const scope = await visibleScope(actor);
      const program = scope.programs.find((p) => p.id === q.program_id);
      if (q.program_id !== undefined && !program) throw AppError.notFound();
      // One program: its staff and the administrators of its enterprise.
      const { rows, total } = await adminList(db, {
        programIds: program ? [program.id] : scope.programIds,
        enterpriseIds: program ? (program.enterprise_id ? [program.enterprise_id] : []) : scope.enterpriseIds,
        role: q.role,
        status: q.status,
        search: q.search,
        page: q.page,
        perPage: q.per_page,
      });
      return pageOf(rows, q, total);
    },

    async ofEnterprise(
      enterprise: { id: number; programIds: number[] },
      q: {
        page: number;
        per_page: number;
        search: string;
        program_id?: number;
        role?: StaffRole;
        status: 'active' | 'disabled' | 'all';
      },
    ) {
      if (q.program_id !== undefined && !enterprise.programIds.includes(q.program_id))
        throw AppError.notFound();
      const { rows, total } = await adminList(db, {
        programIds: q.program_id !== undefined ? [q.program_id] : enterprise.programIds,
        enterpriseIds: [enterprise.id],
        role: q.role,
        status: q.status,
        search: q.search,
        page: q.page,
        perPage: q.per_page,
      });
      return pageOf(rows, q, total);
    },

    /** POST assign-admins: staff of the program's enterprise join the program (default: its type's auto-roles). */
    async assign(actor: StaffActor, input: { program_id: number; admin_ids: number[]; roles?: string[] }) {
      const access = await programAccess(db, actor.adminId, input.program_id);
      if (!access) throw AppError.notFound();
      if (!access.roles.some((r) => ADMIN_ROLES.includes(r))) throw AppError.forbidden();
      const program = await programDetailOr404(actor, access.id);
      const roles = (input.roles ?? [...AUTO_ROLES[program.type as ProgramType]]) as StaffRole[];
      const added = await db.transaction(async (tx) => {
        await assertBodyRefsInScope(
          tx,
          { programIds: [access.id], enterpriseIds: access.enterpriseId ? [access.enterpriseId] : [] },
          { staff: input.admin_ids },
        );
        const ids = await grantRoles(tx, access.id, input.admin_ids, roles);
        if (ids.length > 0)
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId: access.id,
            action: 'admin.assign',
            subjectType: 'program',
            subjectId: access.id,
            details: { admin_ids: ids, roles },
            ip: actor.ip,
          });
        return ids;
      });
      // Their open sockets join the program's channel at once, as after a role change (issue 28 item 6).
      for (const id of added) {
        await realtime.refreshMemberships(id);
        realtime.toUser(id, ADMIN_PROGRAM_ROLES_UPDATED, { admin_id: id, program_id: access.id });
      }
      return { message: M.programUsersUpdated, program_id: access.id, roles, added };
    },

    async physicians(actor: StaffActor, programId?: number) {
      const ids =
        programId !== undefined
          ? [await requireProgramRole(db, actor.adminId, programId)]
          : (await visiblePrograms(db, actor.adminId)).map((p) => p.id);
      return { data: await physicians(db, ids) };
    },

    showProgram: async (actor: StaffActor, programId: number) => ({
      data: await programDetailOr404(actor, programId),
    }),

    /**
     * POST programs: enterprise administrators create programs in their enterprise (the only one they
     * administer when `enterprise_id` is left out). The slug comes from the name unless given.
     */
    async createProgram(
      actor: StaffActor,
      input: {
        name: string;
        slug?: string;
        type: ProgramType;
        enterprise_id?: number;
        modules: string[];
        image?: string | null;
      },
    ) {
      const enterprises = await visibleEnterprises(db, actor.adminId);
      const administered = await administeredEnterpriseIds(db, actor.adminId);
      let enterpriseId = input.enterprise_id;
      if (enterpriseId === undefined) {
        if (administered.length === 0) throw AppError.forbidden();
        if (administered.length > 1) throw AppError.validation({ enterprise_id: [M.enterpriseRequired] });
        enterpriseId = administered[0]!;
      } else if (!administered.includes(enterpriseId)) {
        if (enterprises.some((e) => e.id === enterpriseId)) throw AppError.forbidden();
        throw AppError.notFound();
      }
      const logo = input.image === undefined ? undefined : decodeLogo(input.image);
      let slug = input.slug;
      if (slug !== undefined) {
        if (await slugTaken(db, slug)) throw AppError.validation({ slug: [M.slugTaken] });
      } else {
        const base = slugify(input.name);
        slug = base;
        for (let n = 2; await slugTaken(db, slug); n++) slug = `${base}-${n}`;
      }
      try {
        const data = await db.transaction(async (tx) => {
          const id = await insertProgram(tx, {
            name: input.name,
            slug: slug!,
            type: input.type,
            enterpriseId: enterpriseId!,
            modules: input.modules,
          });
          if (logo) await putLogo(tx, 'program', id, logo);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId: id,
            action: 'program.create',
            subjectType: 'program',
            subjectId: id,
            details: { enterprise_id: enterpriseId, type: input.type },
            ip: actor.ip,
          });
          return programDetailOr404(actor, id, tx);
        });
        return { message: M.programCreated, data };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ slug: [M.slugTaken] });
        throw error;
      }
    },

    async updateProgram(
      actor: StaffActor,
      programId: number,
      input: { name?: string; slug?: string; type?: ProgramType; modules?: string[]; image?: string | null },
    ) {
      const logo = input.image === undefined ? undefined : decodeLogo(input.image);
      if (input.slug !== undefined && (await slugTaken(db, input.slug, programId)))
        throw AppError.validation({ slug: [M.slugTaken] });
      try {
        const data = await db.transaction(async (tx) => {
          await updateProgramRow(tx, programId, input);
          if (logo !== undefined) await putLogo(tx, 'program', programId, logo);
          await audit(tx, {
            actorAdminId: actor.adminId,
            programId,
            action: 'program.update',
            subjectType: 'program',
            subjectId: programId,
            details: {
              fields: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined),
            },
            ip: actor.ip,
          });
          return programDetailOr404(actor, programId, tx);
        });
        return { message: M.programUpdated, data };
      } catch (error) {
        if (isUniqueViolation(error)) throw AppError.validation({ slug: [M.slugTaken] });
        throw error;
      }
    },

    async logo(owner: LogoOwner, id: number) {
      const found = await getLogo(db, owner, id);
      if (!found) throw AppError.notFound('No logo.');
      return found;
    },

    async enterprise(
      actor: StaffActor,
      enterprise: { id: number; programIds: number[] },
      withRelations: boolean,
    ) {
      const data = await enterpriseDetail(
        db,
        actor.adminId,
        enterprise.id,
        enterprise.programIds,
        withRelations,
      );
      if (!data) throw AppError.notFound();
      return { data };
    },

    async updateEnterprise(
      actor: StaffActor,
      enterprise: { id: number; programIds: number[] },
      input: { name?: string; image?: string | null },
    ) {
      const logo = input.image === undefined ? undefined : decodeLogo(input.image);
      const data = await db.transaction(async (tx) => {
        await updateEnterpriseRow(tx, enterprise.id, { name: input.name });
        if (logo !== undefined) await putLogo(tx, 'enterprise', enterprise.id, logo);
        await audit(tx, {
          actorAdminId: actor.adminId,
          action: 'enterprise.update',
          subjectType: 'enterprise',
          subjectId: enterprise.id,
          details: { fields: Object.keys(input).filter((k) => input[k as keyof typeof input] !== undefined) },
          ip: actor.ip,
        });
        return enterpriseDetail(tx, actor.adminId, enterprise.id, enterprise.programIds, true);
      });
      return { message: M.enterpriseUpdated, data: data! };
    },

    async history(enterprise: { id: number; programIds: number[] }, q: { page: number; per_page: number }) {
      const { rows, total } = await enterpriseHistory(db, enterprise.id, enterprise.programIds, {
        page: q.page,
        perPage: q.per_page,
      });
      return pageOf(rows, q, total);
    },

    async programEnterprise(actor: StaffActor, program: { id: number; enterpriseId: number | null }) {
      if (program.enterpriseId === null) return { data: null };
      const found = await enterpriseDetail(db, actor.adminId, program.enterpriseId, [], false);
      return { data: found };
    },
  };
}

export type AdministrationService = ReturnType<typeof createAdministrationService>;
