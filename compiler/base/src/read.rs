//! Bounded reads of source files: what every layer that reads a file from disk goes through.
//!
//! A source is a regular file (a symbolic link is followed) of at most [`MAX_SOURCE`] bytes: a
//! FIFO, a socket or a device (`/dev/zero`) is refused before it is opened, so no read blocks
//! forever or grows without end, and a file that grows while it is read stops at the bound.

use std::io::{Error, ErrorKind, Read};
use std::path::Path;

/// The largest source file read: 64 MiB, as the CLI's own reads (`src/cli/input.rs`).
pub(crate) const MAX_SOURCE: u64 = 64 << 20;

/// The bytes of the file at `path`, if it is a regular file of at most [`MAX_SOURCE`] bytes; an
/// error saying why not otherwise (the system's, or "not a regular file (a FIFO)", "larger than
/// 64 MiB").
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type()));
    }
    if meta.len() > MAX_SOURCE {
        return Err(Error::new(ErrorKind::InvalidData, "larger than 64 MiB"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    std::fs::File::open(path)?.take(MAX_SOURCE + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SOURCE {
        return Err(Error::new(ErrorKind::InvalidData, "larger than 64 MiB"));
    }
    Ok(bytes)
}

/// The error for a file that is no regular one: "not a regular file (a FIFO)".
pub fn not_regular(file_type: std::fs::FileType) -> Error {
    Error::new(ErrorKind::InvalidInput, format!("not a regular file ({})", kind_of(file_type)))
}

/// What a file that is not a regular one is, for a message: reading a FIFO waits for a writer
/// that may never come, a device may never end.
pub fn kind_of(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    if file_type.is_dir() {
        return "a folder";
    }
    "not a file"
}

/// The text of the file at `path`, read as [`read_bytes`] does; not UTF-8 is an `InvalidData`
/// error at the first byte that is not.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    String::from_utf8(read_bytes(path)?).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Error::new(ErrorKind::InvalidData, format!("not UTF-8 (at byte {at})"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_are_read() {
        let dir = std::env::temp_dir().join(format!("base-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("a.ts");
        std::fs::write(&file, "const a = 1;").expect("write");
        assert_eq!(read_text(&file).expect("read"), "const a = 1;");
        assert!(read_text(&dir).is_err(), "a folder");
        if Path::new("/dev/zero").exists() {
            assert_eq!(
                read_bytes(Path::new("/dev/zero")).expect_err("a device").to_string(),
                "not a regular file (a character device)"
            );
        }
        std::fs::write(&file, b"ok\xff").expect("write");
        assert_eq!(read_text(&file).expect_err("not UTF-8").to_string(), "not UTF-8 (at byte 2)");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
