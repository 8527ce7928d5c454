//! The Chart door's rules, one file each, and the order the door runs them in.

pub mod agent_active_twice;
pub mod agent_input;
pub mod agent_invoke_on_done;
pub mod ambiguous_target;
pub mod cut_beside_force_push;
pub mod cut_without_expect;
pub mod cwd_slot_folder;
pub mod detached_cut_from;
pub mod effect_input;
pub mod fail_input;
pub mod fan_out;
pub mod gate_input;
pub mod grammar;
pub mod input_shape;
pub mod json_syntax;
pub mod kit_guard_params;
pub mod kit_part_not_lent;
pub mod minted_agent_shadows;
pub mod missing_initial;
pub mod model_not_allowed;
pub mod payload_keyword;
pub mod payload_type_field;
pub mod sent_by_no_party;
pub mod sent_by_reference;
pub mod too_large;
pub mod too_many_states;
pub mod unknown_action;
pub mod unknown_delay;
pub mod unknown_guard;
pub mod unknown_initial;
pub mod unknown_reference;
pub mod unknown_src;
pub mod unknown_target;
pub mod workspace_not_allowed;
pub mod worktree_path;

use super::Rule;
use crate::door::{Ctx, Sink};
use diagnostics::Diagnostic;
use syntax::json::Json;

/// Every rule of the Chart door.
pub fn all() -> Vec<&'static Rule> {
    vec![
        &json_syntax::JSON_SYNTAX,
        &grammar::CHART_GRAMMAR,
        &too_large::CHART_TOO_LARGE,
        &too_many_states::TOO_MANY_STATES,
        &fan_out::FAN_OUT_CEILING,
        &unknown_target::UNKNOWN_TARGET,
        &ambiguous_target::AMBIGUOUS_TARGET,
        &missing_initial::MISSING_INITIAL,
        &unknown_initial::UNKNOWN_INITIAL,
        &unknown_src::UNKNOWN_SRC,
        &kit_part_not_lent::KIT_PART_NOT_LENT,
        &unknown_guard::UNKNOWN_GUARD,
        &kit_guard_params::KIT_GUARD_PARAMS,
        &sent_by_reference::SENT_BY_REFERENCE,
        &unknown_action::UNKNOWN_ACTION,
        &payload_keyword::PAYLOAD_KEYWORD,
        &payload_type_field::PAYLOAD_TYPE_FIELD,
        &minted_agent_shadows::MINTED_AGENT_SHADOWS,
        &model_not_allowed::MODEL_NOT_ALLOWED,
        &workspace_not_allowed::WORKSPACE_NOT_ALLOWED,
        &agent_invoke_on_done::AGENT_INVOKE_ON_DONE,
        &agent_active_twice::AGENT_ACTIVE_TWICE,
        &sent_by_no_party::SENT_BY_NO_PARTY,
        &unknown_reference::UNKNOWN_REFERENCE,
        &unknown_delay::UNKNOWN_DELAY,
        &fail_input::FAIL_INPUT,
        &gate_input::GATE_INPUT,
        &effect_input::EFFECT_INPUT,
        &cut_without_expect::CUT_WITHOUT_EXPECT,
        &cut_beside_force_push::CUT_BESIDE_FORCE_PUSH,
        &detached_cut_from::DETACHED_CUT_FROM,
        &worktree_path::WORKTREE_PATH,
        &agent_input::AGENT_INPUT,
        &cwd_slot_folder::CWD_SLOT_FOLDER,
    ]
}

/// Rule 1, the grammar.
pub fn grammar_check(chart: &Json) -> Vec<Diagnostic> {
    grammar::check(chart)
}

/// The checks over a Chart the grammar admitted, in the door's order.
pub static DOOR_CHECKS: &[fn(&Ctx, &mut Sink)] = &[
    // rule 2: size and structure
    too_many_states::check,
    unknown_target::check,
    ambiguous_target::check,
    missing_initial::check,
    unknown_initial::check,
    fan_out::check,
    // rule 3: names
    unknown_src::check,
    kit_part_not_lent::check,
    unknown_guard::check,
    kit_guard_params::check,
    sent_by_reference::check,
    unknown_action::check,
    // rule 4: payloads
    payload_keyword::check,
    payload_type_field::check,
    // rule 5: minted Agents
    minted_agent_shadows::check,
    model_not_allowed::check,
    workspace_not_allowed::check,
    // rule 6: parties
    agent_invoke_on_done::check,
    agent_active_twice::check,
    sent_by_no_party::check,
    // rule 7: references and delays
    unknown_reference::check,
    unknown_delay::check,
    // rule 8: lent input shapes
    fail_input::check,
    gate_input::check,
    effect_input::check,
    cut_without_expect::check,
    cut_beside_force_push::check,
    detached_cut_from::check,
    worktree_path::check,
    agent_input::check,
    cwd_slot_folder::check,
];
