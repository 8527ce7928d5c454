//! Every 4xx and 5xx body: `{ status, error, message, report: [ { path, message, rule? } ] }`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::json;

/// One line of a report: where (a JSON Pointer into what was sent) and what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Line {
    pub path: String,
    pub message: String,
    /// The Chart door's rule, for its lines.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<u8>,
}

impl Line {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Line {
        Line { path: path.into(), message: message.into(), rule: None }
    }
}

/// A refusal, as the contract words it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub report: Vec<Line>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), report: Vec::new() }
    }

    pub fn with(mut self, report: Vec<Line>) -> ApiError {
        self.report = report;
        self
    }

    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// The contract's word for the status.
    pub fn code(&self) -> &'static str {
        code_of(self.status)
    }
}

/// The contract's word for a status.
pub fn code_of(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "bad-input",
        401 => "unauthorized",
        404 => "not-found",
        405 => "method-not-allowed",
        409 => "conflict",
        413 => "too-large",
        422 => "refused",
        _ => "internal",
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({
            "status": self.status.as_u16(),
            "error": self.code(),
            "message": self.message,
            "report": self.report,
        });
        let mut response = (self.status, axum::Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// A host's error as the API's.
impl From<host::Error> for ApiError {
    fn from(e: host::Error) -> ApiError {
        match e {
            host::Error::NotFound(id) => ApiError::not_found(format!("there is no run {id:?}")),
            host::Error::Refused(why) => ApiError::bad(why),
            host::Error::Store(store::Error::TooLarge { what, size, limit }) => ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("{what} is {size} bytes, over the store's limit of {limit} bytes"),
            ),
            host::Error::Store(store::Error::NotFound(m)) => ApiError::not_found(m),
            other => ApiError::internal(format!("the host failed: {other}")),
        }
    }
}
