// Settings → Members: the workspace's members, inviting one (the one-time invitation token shown
// once, to hand over), changing a role, removing a member after confirmation. Admins only; the owner's
// row and your own cannot be changed here.
import { allPages, ApiProblem } from './api.js';
import { busy, confirmDialog, openDialog, secretField } from './dialogs.js';
import { badge, banner, h, icon, mount, srOnly } from './dom.js';
import { applyFieldErrors, field, input, select, submitButton } from './forms.js';
import { fullDate, initials, roleLabel, timeElement } from './format.js';
import { adminOnlyNotice, emptyState, errorState, loadingState, pageHeader } from './shell.js';

const ROLES = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
];

/**
 * @param {HTMLElement} main
 * @param {import('./app.js').PageContext} ctx
 */
export function membersPage(main, ctx) {
  document.title = 'Members · Settings · Agent Platform';
  const description = `People who can sign in to ${ctx.me.workspace.name}. Admins manage members and API keys.`;
  if (!ctx.isAdmin) {
    const message =
      'Only workspace admins and the owner can invite, change or remove members. Ask one of them to make changes.';
    mount(
      main,
      pageHeader({ title: 'Members', description }),
      adminOnlyNotice({ title: 'Member management is admin-only', message, me: ctx.me }),
    );
    return;
  }
  /** @type {{ members: any[] }} */
  const state = { members: [] };
  const notices = h('div', { class: 'notices' });
  const card = h('section', { class: 'card', 'aria-label': 'Members' });
  const invite = h(
    'button',
    { type: 'button', class: 'btn btn-primary', on: { click: () => inviteDialog() } },
    icon('mail'),
    h('span', { text: 'Invite member' }),
  );
  mount(main, pageHeader({ title: 'Members', description, action: invite }), notices, card);
  void load();

  async function load() {
    mount(card, loadingState('Loading members…'));
    try {
      const members = await allPages((c) => ctx.api.list_members({ limit: 100, cursor: c ?? undefined }));
      if (!ctx.alive()) return;
      state.members = members;
      renderList();
    } catch (error) {
      if (ctx.alive())
        mount(
          card,
          errorState(error instanceof Error ? error.message : String(error), () => void load()),
        );
    }
  }

  /** @param {'success' | 'error'} kind @param {string} message */
  function notify(kind, message) {
    mount(notices, banner(kind, message, { onDismiss: () => mount(notices) }));
  }

  function renderList() {
    if (!state.members.length) {
      mount(
        card,
        emptyState({ icon: 'users', title: 'No members', message: 'Invite people to work in this workspace.' }),
      );
      return;
    }
    const head = ['Member', 'Role', 'Joined'].map((t) => h('th', { scope: 'col', text: t }));
    const table = h(
      'table',
      { class: 'table' },
      h('caption', { class: 'sr-only', text: `Members (${state.members.length})` }),
      h('thead', null, h('tr', null, head, h('th', { scope: 'col' }, srOnly('Actions')))),
      h('tbody', null, state.members.map(memberRow)),
    );
    const count = state.members.length;
    mount(
      card,
      h('div', { class: 'table-wrap' }, table),
      h('p', { class: 'card-footer', text: `${count} ${count === 1 ? 'member' : 'members'}` }),
    );
  }

  /** @param {any} m */
  function memberRow(m) {
    const isSelf = m.user_id === ctx.me.user?.id;
    const locked = m.role === 'owner' || isSelf;
    const who = h(
      'th',
      { scope: 'row', class: 'cell-primary' },
      h(
        'span',
        { class: 'member' },
        h('span', { class: 'avatar', 'aria-hidden': 'true', text: initials(m.name, m.email) }),
        h(
          'span',
          { class: 'member-text' },
          h('span', { class: 'cell-title' }, m.name, isSelf ? h('span', { class: 'you', text: 'You' }) : null),
          h('span', { class: 'cell-sub', text: m.email }),
        ),
      ),
    );
    const role = locked ? badge(roleLabel(m.role), m.role === 'member' ? 'gray' : 'indigo') : roleSelect(m);
    const action = locked
      ? h('span', { class: 'muted cell-note', text: m.role === 'owner' ? 'Owner cannot be changed' : '' })
      : h('button', {
          type: 'button',
          class: 'btn btn-ghost-danger btn-sm',
          'aria-label': `Remove ${m.name}`,
          text: 'Remove',
          on: { click: () => removeMember(m) },
        });
    return h(
      'tr',
      { dataset: { userId: m.user_id } },
      who,
      h('td', null, role),
      h('td', null, timeElement(m.joined_at)),
      h('td', { class: 'cell-actions' }, action),
    );
  }

  /** @param {any} m */
  function roleSelect(m) {
    const control = select(
      { name: 'role', class: 'input select select-sm', 'aria-label': `Role for ${m.name}` },
      ROLES,
      m.role,
    );
    control.addEventListener('change', async () => {
      const role = /** @type {'admin' | 'member'} */ (control.value);
      control.disabled = true;
      try {
        const updated = await ctx.api.update_member_role({ user_id: m.user_id, role });
        state.members = state.members.map((x) => (x.user_id === updated.user_id ? updated : x));
        notify('success', `${m.name} is now ${role === 'admin' ? 'an admin' : 'a member'}.`);
        m.role = updated.role;
      } catch (error) {
        control.value = m.role;
        if (!(error instanceof ApiProblem && error.status === 401))
          notify('error', error instanceof Error ? error.message : String(error));
      } finally {
        control.disabled = false;
      }
    });
    return control;
  }

  function inviteDialog() {
    const d = openDialog({ title: 'Invite a member' });
    const email = input({
      type: 'email',
      name: 'email',
      required: true,
      maxlength: '254',
      autocomplete: 'off',
      spellcheck: 'false',
      placeholder: 'name@company.com',
    });
    const role = select({ name: 'role' }, ROLES, 'member');
    const errorSlot = h('div', { class: 'dialog-error' });
    const submit = submitButton('Create invitation');
    const cancel = h('button', {
      type: 'button',
      class: 'btn btn-secondary',
      text: 'Cancel',
      on: { click: () => d.close() },
    });
    const form = /** @type {HTMLFormElement} */ (
      h(
        'form',
        { class: 'dialog-form' },
        field({ label: 'Email', control: email }),
        field({
          label: 'Role',
          control: role,
          hint: 'Admins can manage members and API keys. Members can use the platform. API keys act with their creator’s current role.',
        }),
        errorSlot,
        h('div', { class: 'dialog-actions' }, cancel, submit),
      )
    );
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      const created = await busy(submit, errorSlot, 'Creating…', async () => {
        try {
          return await ctx.api.invite_member({
            email: email.value.trim(),
            role: /** @type {'admin' | 'member'} */ (role.value),
          });
        } catch (error) {
          throw error instanceof ApiProblem ? new Error(applyFieldErrors(form, error)) : error;
        }
      });
      if (!created) return;
      notify('success', `Invitation created for ${created.email}.`);
      showToken(d, created);
    });
    d.setContent([form]);
  }

  /** @param {import('./dialogs.js').DialogHandle} d @param {any} invitation */
  function showToken(d, invitation) {
    d.setTitle('Hand over the invitation');
    const done = h('button', {
      type: 'button',
      class: 'btn btn-primary',
      text: 'Done',
      on: { click: () => d.close() },
    });
    const joinUrl = `${location.origin}/admin/join`;
    const text = h(
      'p',
      { class: 'dialog-text' },
      'Give this one-time token to ',
      h('strong', { text: invitation.email }),
      ` (joins as ${roleLabel(invitation.role).toLowerCase()}). They enter it at `,
      h('code', { text: joinUrl }),
      '. It expires ',
      h('time', { datetime: invitation.expires_at, text: fullDate(invitation.expires_at) }),
      '.',
    );
    const warning = banner('warning', 'Send it over a private channel. You will not see this token again.', {
      title: 'This is the only time the token is shown',
    });
    d.setContent(
      [
        text,
        warning,
        secretField({ label: 'Invitation token', value: invitation.token, name: 'invitation-token' }),
        h('div', { class: 'dialog-actions' }, done),
      ],
      null,
    );
  }

  /** @param {any} m */
  async function removeMember(m) {
    await confirmDialog({
      title: 'Remove member?',
      message: [
        h('strong', { text: m.name }),
        ` (${m.email}) loses access to ${ctx.me.workspace.name} at once: their sessions stop working on their next request, and the API keys they created are revoked.`,
      ],
      confirmLabel: 'Remove member',
      busyLabel: 'Removing…',
      action: async () => {
        await ctx.api.remove_member({ user_id: m.user_id });
        state.members = state.members.filter((x) => x.user_id !== m.user_id);
        renderList();
        notify('success', `${m.name} was removed from the workspace.`);
      },
    });
  }
}
