//! placeholder: chartSchemaFor
