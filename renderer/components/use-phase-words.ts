/**
 * A building phase in the user's language. The server names its phases in English (`Phase` of the API: Demolition,
 * New, Existing); the app knows them, so it says them in the user's words. A phase another server names otherwise
 * shows as it came.
 */
import { useI18n } from 'vue-i18n';
import { assertNever, Phase, type PhaseName } from '../../shared/api/enums';

const PHASE_NAMES = Object.keys(Phase) as PhaseName[];

/** The phase a match names, by its id, else by its English name. */
function phaseOf(match: { id: string; name: string }): PhaseName | undefined {
  const id = match.id.toLowerCase();
  const name = match.name.trim().toLowerCase();
  return PHASE_NAMES.find((phase) => Phase[phase].id === id) ?? PHASE_NAMES.find((phase) => Phase[phase].name.toLowerCase() === name);
}

/** A phase's name in the user's language; call from a component's setup. */
export function usePhaseName(): (phase: PhaseName) => string {
  const { t } = useI18n();
  return (phase) => {
    switch (phase) {
      case 'Demolition':
        return t('dataValues.phase.Demolition');
      case 'New':
        return t('dataValues.phase.New');
      case 'Existing':
        return t('dataValues.phase.Existing');
      default:
        return assertNever(phase, 'phase');
    }
  };
}

/** The words of a phase match, given each phase's name in the user's language. */
export function phaseWordsOf(phaseName: (phase: PhaseName) => string): (match: { id: string; name: string }) => string {
  return (match) => {
    const phase = phaseOf(match);
    return phase === undefined ? match.name : phaseName(phase);
  };
}

/** The words of a phase match; call from a component's setup. */
export function usePhaseWords(): (match: { id: string; name: string }) => string {
  return phaseWordsOf(usePhaseName());
}
