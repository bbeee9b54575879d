//! What a script declares with `loam.brush(name, params)`: the brush's name and its parameters
//! (a number with a default and optional bounds, a string or a boolean), which the editor shows
//! as the tool's settings and `loam script --param KEY=VALUE` sets; and the values a stroke
//! passes to `dab(dab, params)`.
//!
//! Not for: running anything (`host`).

use mlua::{Lua, Table, Value};

/// A brush a script declares.
#[derive(Debug, Clone, PartialEq)]
pub struct BrushDecl {
    /// The name given to `loam.brush` (what the tool bar shows).
    pub name: String,
    /// Its parameters, sorted by key.
    pub params: Vec<ParamDecl>,
}

/// One parameter of a brush.
#[derive(Debug, Clone, PartialEq)]
pub struct ParamDecl {
    /// The key the script reads (`params.step`).
    pub key: String,
    /// Its kind, default and bounds.
    pub kind: ParamKind,
}

/// A parameter's kind with its default (and, for numbers, bounds).
#[derive(Debug, Clone, PartialEq)]
pub enum ParamKind {
    /// A number: a slider from `min` to `max` when both are given.
    Number {
        /// The value when none is given.
        default: f64,
        /// The least value allowed.
        min: Option<f64>,
        /// The greatest value allowed.
        max: Option<f64>,
    },
    /// A string (a texture or model path, a name).
    Text {
        /// The value when none is given.
        default: String,
    },
    /// A switch.
    Bool {
        /// The value when none is given.
        default: bool,
    },
}

/// A parameter's value.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// A switch.
    Bool(bool),
}

impl ParamDecl {
    /// The parameter's default.
    pub fn default_value(&self) -> ParamValue {
        match &self.kind {
            ParamKind::Number { default, .. } => ParamValue::Number(*default),
            ParamKind::Text { default } => ParamValue::Text(default.clone()),
            ParamKind::Bool { default } => ParamValue::Bool(*default),
        }
    }

    /// `text` read as this parameter's value (`--param KEY=VALUE`), checked against its bounds.
    pub fn parse(&self, text: &str) -> Result<ParamValue, String> {
        let value = match &self.kind {
            ParamKind::Number { .. } => ParamValue::Number(
                text.trim()
                    .parse::<f64>()
                    .map_err(|_| format!("`{}` is a number, not {text:?}", self.key))?,
            ),
            ParamKind::Text { .. } => ParamValue::Text(text.to_string()),
            ParamKind::Bool { .. } => match text.trim() {
                "true" | "1" | "yes" | "on" => ParamValue::Bool(true),
                "false" | "0" | "no" | "off" => ParamValue::Bool(false),
                _ => return Err(format!("`{}` is true or false, not {text:?}", self.key)),
            },
        };
        self.check(&value)?;
        Ok(value)
    }

    /// Checks that `value` is of this parameter's kind and within its bounds.
    pub fn check(&self, value: &ParamValue) -> Result<(), String> {
        match (&self.kind, value) {
            (ParamKind::Number { min, max, .. }, ParamValue::Number(v)) => {
                if !v.is_finite() {
                    return Err(format!("`{}` must be a finite number, not {v}", self.key));
                }
                if let Some(min) = min.filter(|m| v < m) {
                    return Err(format!("`{}` is at least {min}, not {v}", self.key));
                }
                if let Some(max) = max.filter(|m| v > m) {
                    return Err(format!("`{}` is at most {max}, not {v}", self.key));
                }
                Ok(())
            }
            (ParamKind::Text { .. }, ParamValue::Text(_))
            | (ParamKind::Bool { .. }, ParamValue::Bool(_)) => Ok(()),
            _ => Err(format!("`{}` takes a value of another kind", self.key)),
        }
    }
}

/// Reads `loam.brush`'s second argument: a table of key = declaration, where a declaration is
/// `{ default = N, min = N, max = N }`, `{ default = "text" }`, `{ default = true }`, or the
/// bare default itself.
pub fn read_params(params: Option<Table>) -> mlua::Result<Vec<ParamDecl>> {
    let Some(params) = params else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for pair in params.pairs::<Value, Value>() {
        let (key, decl) = pair?;
        let Value::String(key) = key else {
            return Err(mlua::Error::runtime(
                "loam.brush: parameter names are strings",
            ));
        };
        let key = key.to_str()?.to_string();
        let bad =
            |what: &str| mlua::Error::runtime(format!("loam.brush: parameter `{key}` {what}"));
        let (default, min, max) = match decl {
            Value::Table(t) => (
                t.get::<Value>("default")?,
                t.get::<Option<f64>>("min")
                    .map_err(|_| bad("has a `min` that is not a number"))?,
                t.get::<Option<f64>>("max")
                    .map_err(|_| bad("has a `max` that is not a number"))?,
            ),
            other => (other, None, None),
        };
        let kind = match default {
            Value::Integer(n) => ParamKind::Number {
                default: n as f64,
                min,
                max,
            },
            Value::Number(n) => ParamKind::Number {
                default: n,
                min,
                max,
            },
            Value::String(s) => ParamKind::Text {
                default: s.to_str()?.to_string(),
            },
            Value::Boolean(b) => ParamKind::Bool { default: b },
            _ => return Err(bad("needs a `default`: a number, a string or a boolean")),
        };
        if let (ParamKind::Number { default, .. }, Some(lo), Some(hi)) = (&kind, min, max)
            && !(lo <= *default && *default <= hi)
        {
            return Err(bad(&format!(
                "has its default {default} outside {lo}..{hi}"
            )));
        }
        out.push(ParamDecl { key, kind });
    }
    out.sort_by(|a, b| a.key.cmp(&b.key));
    Ok(out)
}

/// The `params` table a stroke passes: each parameter's value from `given` (by key), else its
/// default. A key no parameter has is refused.
pub fn values(
    decl: &BrushDecl,
    given: &[(String, ParamValue)],
) -> Result<Vec<(String, ParamValue)>, String> {
    if let Some((key, _)) = given
        .iter()
        .find(|(k, _)| !decl.params.iter().any(|p| p.key == *k))
    {
        let known: Vec<&str> = decl.params.iter().map(|p| p.key.as_str()).collect();
        return Err(format!(
            "brush {:?} has no parameter `{key}` (it has: {})",
            decl.name,
            if known.is_empty() {
                "none".to_string()
            } else {
                known.join(", ")
            }
        ));
    }
    decl.params
        .iter()
        .map(|p| {
            let value = match given.iter().rev().find(|(k, _)| *k == p.key) {
                Some((_, v)) => {
                    p.check(v)?;
                    v.clone()
                }
                None => p.default_value(),
            };
            Ok((p.key.clone(), value))
        })
        .collect()
}

/// The values as a Lua table.
pub fn to_table(lua: &Lua, values: &[(String, ParamValue)]) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for (k, v) in values {
        match v {
            ParamValue::Number(n) => t.set(k.as_str(), *n)?,
            ParamValue::Text(s) => t.set(k.as_str(), s.as_str())?,
            ParamValue::Bool(b) => t.set(k.as_str(), *b)?,
        }
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_read_with_their_kinds_and_bounds() {
        let lua = Lua::new();
        let t: Table = lua
            .load(r#"{ step = { default = 8, min = 1, max = 50 }, texture = "rock.blp", on = { default = true } }"#)
            .eval()
            .unwrap();
        let params = read_params(Some(t)).unwrap();
        let keys: Vec<&str> = params.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["on", "step", "texture"]);
        assert_eq!(
            params[1].kind,
            ParamKind::Number {
                default: 8.0,
                min: Some(1.0),
                max: Some(50.0)
            }
        );
        assert_eq!(params[1].parse("12"), Ok(ParamValue::Number(12.0)));
        assert!(params[1].parse("51").unwrap_err().contains("at most 50"));
        assert!(params[0].parse("maybe").is_err());
        let decl = BrushDecl {
            name: "T".into(),
            params,
        };
        let got = values(&decl, &[("step".into(), ParamValue::Number(3.0))]).unwrap();
        assert_eq!(got[1], ("step".to_string(), ParamValue::Number(3.0)));
        assert_eq!(got[2].1, ParamValue::Text("rock.blp".into()));
        assert!(values(&decl, &[("nope".into(), ParamValue::Bool(true))]).is_err());
    }
}
