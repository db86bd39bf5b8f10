//! No function of the engine is longer than [`MAX_LINES`] lines (PREAMBLE: "keep functions
//! under ~150 lines"): a source check, so a function that grows past it fails here with its
//! file, name and length. Unit tests (`#[cfg(test)]` modules, `tests.rs`) are not counted.

use std::path::Path;

const MAX_LINES: usize = 150;

/// The functions of one file's own code longer than `max` lines, as `file:line fn (N lines)`.
/// A function runs from its `fn` line to the first line that closes it at its own indent.
fn long_functions(file: &str, text: &str, max: usize) -> Vec<String> {
    let code = text.split("\n#[cfg(test)]").next().unwrap_or("");
    let lines: Vec<&str> = code.lines().collect();
    let mut found = Vec::new();
    for (n, line) in lines.iter().enumerate() {
        let indent = line.len() - line.trim_start().len();
        let rest = line.trim_start();
        let rest = rest
            .strip_prefix("pub(crate) ")
            .or_else(|| rest.strip_prefix("pub(super) "))
            .or_else(|| rest.strip_prefix("pub "))
            .unwrap_or(rest);
        let rest = rest.strip_prefix("const ").unwrap_or(rest);
        let Some(sig) = rest.strip_prefix("fn ") else {
            continue;
        };
        if line.trim_end().ends_with(';') {
            continue;
        }
        let name: String = sig
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{}}}", " ".repeat(indent));
        let Some(len) = lines[n..].iter().position(|l| *l == close) else {
            continue;
        };
        if len + 1 > max {
            found.push(format!("{file}:{} fn {name} ({} lines)", n + 1, len + 1));
        }
    }
    found
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("engine/src").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push(path);
        }
    }
}

#[test]
fn no_engine_function_is_longer_than_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    assert!(files.len() > 30, "only {} source files found", files.len());
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("a source file");
        let name = f.strip_prefix(&src).unwrap_or(f).display().to_string();
        found.extend(long_functions(&name, &text, MAX_LINES));
    }
    assert!(
        found.is_empty(),
        "functions longer than {MAX_LINES} lines (split them by what they do):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_measures_functions_but_not_tests() {
    let text = "fn short() {\n    a();\n}\n\
                impl X {\n    pub(crate) fn long(&self) {\n        a();\n        b();\n        c();\n    }\n}\n\
                fn decl();\n\
                #[cfg(test)]\nmod tests {\n    fn longer_test() {\n        a();\n        b();\n        c();\n        d();\n    }\n}\n";
    let v = long_functions("x.rs", text, 4);
    assert_eq!(v, vec!["x.rs:5 fn long (5 lines)".to_string()]);
}
