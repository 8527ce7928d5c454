//! The Chart door's rules, one file each, and the order the door runs them in.

pub mod input_shape;

use crate::door::{Chart, Tree};
use crate::rules::{Ctx, Sink};

// The door's rules in the door's order: `CHECKS` run over a Chart the grammar admitted.
family! {
    checks: Chart;
    // rule 1: the JSON, the size ceiling and the grammar, which the door runs itself
    json_syntax::JSON_SYNTAX,
    duplicate_key::DUPLICATE_KEY,
    grammar::CHART_GRAMMAR,
    too_large::CHART_TOO_LARGE,
    // a Chart file checked with no Open body (`door::check_lone`)
    chart_without_lends::CHART_WITHOUT_LENDS,
    // rule 2: size and structure
    too_many_states::TOO_MANY_STATES => check,
    unknown_target::UNKNOWN_TARGET => check,
    ambiguous_target::AMBIGUOUS_TARGET => check,
    missing_initial::MISSING_INITIAL => check,
    unknown_initial::UNKNOWN_INITIAL => check,
    fan_out::FAN_OUT_CEILING => check,
    // rule 3: names
    unknown_src::UNKNOWN_SRC => check,
    kit_part_not_lent::KIT_PART_NOT_LENT => check,
    unknown_guard::UNKNOWN_GUARD => check,
    kit_guard_params::KIT_GUARD_PARAMS => check,
    sent_by_reference::SENT_BY_REFERENCE => check,
    unknown_action::UNKNOWN_ACTION => check,
    // rule 4: payloads
    payload_keyword::PAYLOAD_KEYWORD => check,
    payload_type_field::PAYLOAD_TYPE_FIELD => check,
    // rule 5: minted Agents
    minted_agent_shadows::MINTED_AGENT_SHADOWS => check,
    model_not_allowed::MODEL_NOT_ALLOWED => check,
    workspace_not_allowed::WORKSPACE_NOT_ALLOWED => check,
    // rule 6: parties
    agent_invoke_on_done::AGENT_INVOKE_ON_DONE => check,
    agent_active_twice::AGENT_ACTIVE_TWICE => check,
    sent_by_no_party::SENT_BY_NO_PARTY => check,
    // rule 7: references and delays
    unknown_reference::UNKNOWN_REFERENCE => check,
    unknown_delay::UNKNOWN_DELAY => check,
    // rule 8: lent input shapes
    fail_input::FAIL_INPUT => check,
    gate_input::GATE_INPUT => check,
    effect_input::EFFECT_INPUT => check,
    cut_without_expect::CUT_WITHOUT_EXPECT => check,
    cut_beside_force_push::CUT_BESIDE_FORCE_PUSH => check,
    detached_cut_from::DETACHED_CUT_FROM => check,
    worktree_path::WORKTREE_PATH => check,
    agent_input::AGENT_INPUT => check,
    cwd_slot_folder::CWD_SLOT_FOLDER => check,
}

/// Rule 1's checks over the parsed Chart, in the order they run: the size ceiling, the repeated
/// keys, the grammar.
pub(crate) static TREE_CHECKS: &[fn(&Ctx<Tree>, &mut Sink)] = &[too_large::check, duplicate_key::check, grammar::check];
