//! placeholder: chartBriefing
