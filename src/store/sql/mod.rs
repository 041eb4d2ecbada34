//! The SQL both stores share, and the thin layer that runs it on either engine.
//!
//! The schema ([`schema`]), the read queries ([`queries`]), the reading of single rows ([`rows`]), the
//! reads built on them ([`reads`]) and the rating recomputation ([`ratings`]) are written once, as SQL
//! text in SQLite's spelling with a few tokens, and run through [`Db`]: "run this SQL with these
//! parameters, give me the rows", implemented for a rusqlite [`rusqlite::Connection`] ([`Lite`]) and
//! for a sync `postgres` client or transaction ([`Pg`]). Only what really differs between the engines
//! (locking, fencing, versions, repair) stays in `sqlite.rs` and `postgres.rs`.
//!
//! Rendering ([`render`]) turns the shared text into an engine's: `?1` becomes `$1` for PostgreSQL,
//! and these tokens take each engine's spelling (SQLite / PostgreSQL):
//! `{int}` INTEGER / BIGINT, `{bool}` INTEGER / BOOLEAN, `{real}` REAL / DOUBLE PRECISION,
//! `{bytes}` BLOB / BYTEA, `{serial}` INTEGER PRIMARY KEY AUTOINCREMENT / BIGSERIAL PRIMARY KEY,
//! `{true}` 1 / TRUE, `{false}` 0 / FALSE, and `{a|b}` for the rare rest (a column SQLite keeps
//! untyped, a partial index's predicate as each engine's schema has always spelled it).
//!
//! Why a layer of our own and not a crate: `sqlx` and `diesel` each bring their own SQLite driver
//! (`libsqlite3-sys` of a version of their choosing, which would tie or clash with rusqlite's) and an
//! async runtime or a query DSL; `sea-query` builds SQL for both but leaves running it and mapping
//! rows to us, and would turn readable SQL into builder calls; `r2d2`/`deadpool` only pool. What the
//! stores need is small (positional parameters, rows of a handful of value types, the plan test
//! reading the very text SQLite runs), so about 300 lines here keep rusqlite and postgres as they are.

pub mod profiles;
pub mod queries;
pub mod ratings;
pub mod reads;
pub mod rows;
pub mod schema;
pub mod writes;

use std::borrow::Cow;

use super::StoreError;

/// The two engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// SQLite (rusqlite).
    Sqlite,
    /// PostgreSQL (the sync `postgres` client).
    Postgres,
}

/// The shared text in `engine`'s spelling (see the module's documentation).
pub fn render(sql: &str, engine: Engine) -> Cow<'_, str> {
    if !sql.contains(['{', '?']) {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut rest = sql;
    while let Some(at) = rest.find(['{', '?']) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        if let Some(after) = tail.strip_prefix('?') {
            out.push(if engine == Engine::Postgres { '$' } else { '?' });
            rest = after;
            continue;
        }
        let Some(end) = tail.find('}') else {
            out.push_str(tail);
            rest = "";
            break;
        };
        let token = &tail[1..end];
        let (lite, pg) = match token {
            "int" => ("INTEGER", "BIGINT"),
            "bool" => ("INTEGER", "BOOLEAN"),
            "real" => ("REAL", "DOUBLE PRECISION"),
            "bytes" => ("BLOB", "BYTEA"),
            "serial" => ("INTEGER PRIMARY KEY AUTOINCREMENT", "BIGSERIAL PRIMARY KEY"),
            "true" => ("1", "TRUE"),
            "false" => ("0", "FALSE"),
            other => other.split_once('|').unwrap_or((other, other)),
        };
        out.push_str(if engine == Engine::Sqlite { lite } else { pg });
        rest = &tail[end + 1..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// A parameter of a shared statement: bound as the same Rust value on both engines (a `bool` is an
/// integer 0/1 in SQLite and a `BOOLEAN` in PostgreSQL).
#[derive(Clone, Copy, Debug)]
pub enum Param<'a> {
    /// A 64-bit integer (ids, counts, times).
    Int(i64),
    /// An integer or `NULL`.
    OptInt(Option<i64>),
    /// A flag.
    Bool(bool),
    /// A floating-point number.
    Real(f64),
    /// Text.
    Text(&'a str),
    /// Text or `NULL`.
    OptText(Option<&'a str>),
}

impl Param<'_> {
    /// The value for rusqlite.
    fn lite(&self) -> &dyn rusqlite::ToSql {
        match self {
            Param::Int(v) => v,
            Param::OptInt(v) => v,
            Param::Bool(v) => v,
            Param::Real(v) => v,
            Param::Text(v) => v,
            Param::OptText(v) => v,
        }
    }

    /// The value for the postgres client.
    fn pg(&self) -> &(dyn ::postgres::types::ToSql + Sync) {
        match self {
            Param::Int(v) => v,
            Param::OptInt(v) => v,
            Param::Bool(v) => v,
            Param::Real(v) => v,
            Param::Text(v) => v,
            Param::OptText(v) => v,
        }
    }
}

impl From<i64> for Param<'_> {
    fn from(v: i64) -> Self {
        Param::Int(v)
    }
}

impl From<Option<i64>> for Param<'_> {
    fn from(v: Option<i64>) -> Self {
        Param::OptInt(v)
    }
}

impl From<bool> for Param<'_> {
    fn from(v: bool) -> Self {
        Param::Bool(v)
    }
}

impl From<f64> for Param<'_> {
    fn from(v: f64) -> Self {
        Param::Real(v)
    }
}

impl<'a> From<&'a str> for Param<'a> {
    fn from(v: &'a str) -> Self {
        Param::Text(v)
    }
}

impl<'a> From<&'a String> for Param<'a> {
    fn from(v: &'a String) -> Self {
        Param::Text(v)
    }
}

impl<'a> From<Option<&'a str>> for Param<'a> {
    fn from(v: Option<&'a str>) -> Self {
        Param::OptText(v)
    }
}

/// The parameters of a shared statement, each converted with [`Param::from`].
macro_rules! params {
    ($($value:expr),* $(,)?) => {
        &[$($crate::store::sql::Param::from($value)),*]
    };
}
pub(crate) use params;

/// A value read, as SQLite types it (PostgreSQL's `BOOLEAN` kept apart: SQLite has none).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `NULL` (SQLite also reads a stored NaN as `NULL`).
    Null,
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text (SQLite text that is not UTF-8 reads as [`Value::Bytes`]).
    Text(String),
    /// Bytes.
    Bytes(Vec<u8>),
    /// A PostgreSQL `BOOLEAN`.
    Bool(bool),
}

impl Value {
    /// The value for the log.
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "NULL (or NaN)".into(),
            Value::Int(n) => n.to_string(),
            Value::Real(x) => x.to_string(),
            Value::Text(text) => format!("the text {text:?}"),
            Value::Bytes(bytes) => format!("{} bytes", bytes.len()),
            Value::Bool(b) => b.to_string(),
        }
    }

    /// The type's name, for a type error.
    fn kind(&self) -> &'static str {
        match self {
            Value::Null => "NULL",
            Value::Int(_) => "an integer",
            Value::Real(_) => "a real number",
            Value::Text(_) => "text",
            Value::Bytes(_) => "bytes",
            Value::Bool(_) => "a boolean",
        }
    }
}

/// An error of the layer: the engine's own, or a column that does not hold what the code reads.
#[derive(Debug)]
pub enum DbError {
    /// SQLite failed.
    Sqlite(rusqlite::Error),
    /// PostgreSQL failed.
    Postgres(::postgres::Error),
    /// A column holds another type than the one read.
    Column {
        /// The column's position.
        index: usize,
        /// What the code reads.
        wanted: &'static str,
        /// What it holds.
        found: &'static str,
    },
}

impl From<rusqlite::Error> for DbError {
    fn from(e: rusqlite::Error) -> Self {
        DbError::Sqlite(e)
    }
}

impl From<::postgres::Error> for DbError {
    fn from(e: ::postgres::Error) -> Self {
        DbError::Postgres(e)
    }
}

impl DbError {
    /// As a PostgreSQL store reports it.
    pub fn into_postgres(self) -> StoreError {
        match self {
            DbError::Postgres(e) => StoreError::Postgres(e),
            DbError::Sqlite(e) => StoreError::Config(format!("SQLite error in PostgreSQL: {e}")),
            column @ DbError::Column { .. } => {
                StoreError::Config(format!("PostgreSQL: {}", column.column_text()))
            }
        }
    }

    /// As a rusqlite error (a column's type error as rusqlite's own).
    pub fn into_sqlite(self) -> rusqlite::Error {
        match self {
            DbError::Sqlite(e) => e,
            DbError::Postgres(e) => rusqlite::Error::ToSqlConversionFailure(Box::new(e)),
            column @ DbError::Column { .. } => {
                let index = match &column {
                    DbError::Column { index, .. } => *index,
                    _ => 0,
                };
                rusqlite::Error::FromSqlConversionFailure(
                    index,
                    rusqlite::types::Type::Null,
                    column.column_text().into(),
                )
            }
        }
    }

    fn column_text(&self) -> String {
        match self {
            DbError::Column {
                index,
                wanted,
                found,
            } => format!("column {index} holds {found}, not {wanted}"),
            other => format!("{other:?}"),
        }
    }
}

/// One row read.
#[derive(Clone, Debug, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    /// The value of column `i` as stored.
    pub fn value(&self, i: usize) -> &Value {
        self.0.get(i).unwrap_or(&Value::Null)
    }

    fn wrong(&self, i: usize, wanted: &'static str) -> DbError {
        DbError::Column {
            index: i,
            wanted,
            found: self.value(i).kind(),
        }
    }

    /// An integer column.
    pub fn int(&self, i: usize) -> Result<i64, DbError> {
        match self.value(i) {
            Value::Int(n) => Ok(*n),
            _ => Err(self.wrong(i, "an integer")),
        }
    }

    /// A flag: a PostgreSQL `BOOLEAN` or a SQLite integer (not 0).
    pub fn bool(&self, i: usize) -> Result<bool, DbError> {
        match self.value(i) {
            Value::Bool(b) => Ok(*b),
            Value::Int(n) => Ok(*n != 0),
            _ => Err(self.wrong(i, "a flag")),
        }
    }

    /// A text column.
    pub fn text(&self, i: usize) -> Result<String, DbError> {
        match self.value(i) {
            Value::Text(t) => Ok(t.clone()),
            _ => Err(self.wrong(i, "text")),
        }
    }

    /// A text column that may be `NULL`.
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, DbError> {
        match self.value(i) {
            Value::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }

    /// A bytes (or text) column that may be `NULL`.
    pub fn opt_bytes(&self, i: usize) -> Result<Option<Vec<u8>>, DbError> {
        match self.value(i) {
            Value::Null => Ok(None),
            Value::Bytes(b) => Ok(Some(b.clone())),
            Value::Text(t) => Ok(Some(t.clone().into_bytes())),
            _ => Err(self.wrong(i, "bytes")),
        }
    }
}

/// Runs shared SQL on one engine: the statement is rendered for it (see [`render`]).
pub trait Db {
    /// Runs a query; its rows.
    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DbError>;
    /// Runs a statement; how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DbError>;
    /// Runs statements without parameters.
    fn batch(&mut self, sql: &str) -> Result<(), DbError>;

    /// A query's first row, if any.
    fn query_opt(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Option<Row>, DbError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }
}

/// [`Db`] on a rusqlite connection (or a transaction, through `Deref`); statements are cached.
pub struct Lite<'c>(pub &'c rusqlite::Connection);

/// A SQLite value as [`Value`] (text that is not UTF-8 as bytes).
fn lite_value(value: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef;
    match value {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Int(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(text) => Value::Text(text.to_string()),
            Err(_) => Value::Bytes(t.to_vec()),
        },
        ValueRef::Blob(b) => Value::Bytes(b.to_vec()),
    }
}

impl Db for Lite<'_> {
    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DbError> {
        let mut stmt = self.0.prepare_cached(&render(sql, Engine::Sqlite))?;
        let columns = stmt.column_count();
        let rows = stmt
            .query_map(
                rusqlite::params_from_iter(params.iter().map(Param::lite)),
                |row| {
                    (0..columns)
                        .map(|i| row.get_ref(i).map(lite_value))
                        .collect::<rusqlite::Result<Vec<Value>>>()
                        .map(Row)
                },
            )?
            .collect::<rusqlite::Result<Vec<Row>>>()?;
        Ok(rows)
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DbError> {
        let changed = self
            .0
            .prepare_cached(&render(sql, Engine::Sqlite))?
            .execute(rusqlite::params_from_iter(params.iter().map(Param::lite)))?;
        Ok(u64::try_from(changed).unwrap_or(u64::MAX))
    }

    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        Ok(self.0.execute_batch(&render(sql, Engine::Sqlite))?)
    }
}

/// [`Db`] on a postgres client or transaction.
pub struct Pg<'c, C>(pub &'c mut C);

/// A PostgreSQL value as [`Value`], by the column's type.
fn pg_value(row: &::postgres::Row, i: usize) -> Result<Value, DbError> {
    use ::postgres::types::Type;
    let ty = row.columns()[i].type_().clone();
    let value = if ty == Type::INT8 {
        row.try_get::<_, Option<i64>>(i)?.map(Value::Int)
    } else if ty == Type::INT4 {
        row.try_get::<_, Option<i32>>(i)?
            .map(|n| Value::Int(n.into()))
    } else if ty == Type::INT2 {
        row.try_get::<_, Option<i16>>(i)?
            .map(|n| Value::Int(n.into()))
    } else if ty == Type::FLOAT8 {
        row.try_get::<_, Option<f64>>(i)?.map(Value::Real)
    } else if ty == Type::FLOAT4 {
        row.try_get::<_, Option<f32>>(i)?
            .map(|x| Value::Real(x.into()))
    } else if ty == Type::BOOL {
        row.try_get::<_, Option<bool>>(i)?.map(Value::Bool)
    } else if ty == Type::BYTEA {
        row.try_get::<_, Option<Vec<u8>>>(i)?.map(Value::Bytes)
    } else {
        row.try_get::<_, Option<String>>(i)?.map(Value::Text)
    };
    Ok(value.unwrap_or(Value::Null))
}

impl<C: ::postgres::GenericClient> Db for Pg<'_, C> {
    fn query(&mut self, sql: &str, params: &[Param<'_>]) -> Result<Vec<Row>, DbError> {
        let params: Vec<_> = params.iter().map(Param::pg).collect();
        self.0
            .query(render(sql, Engine::Postgres).as_ref(), &params)?
            .iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| pg_value(row, i))
                    .collect::<Result<Vec<Value>, DbError>>()
                    .map(Row)
            })
            .collect()
    }

    fn execute(&mut self, sql: &str, params: &[Param<'_>]) -> Result<u64, DbError> {
        let params: Vec<_> = params.iter().map(Param::pg).collect();
        Ok(self
            .0
            .execute(render(sql, Engine::Postgres).as_ref(), &params)?)
    }

    fn batch(&mut self, sql: &str) -> Result<(), DbError> {
        Ok(self.0.batch_execute(&render(sql, Engine::Postgres))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_and_spellings_are_rendered_per_engine() {
        let sql = "SELECT a FROM t WHERE b = ?1 AND c = {true} AND d{| TEXT} LIMIT ?12";
        assert_eq!(
            render(sql, Engine::Sqlite),
            "SELECT a FROM t WHERE b = ?1 AND c = 1 AND d LIMIT ?12"
        );
        assert_eq!(
            render(sql, Engine::Postgres),
            "SELECT a FROM t WHERE b = $1 AND c = TRUE AND d TEXT LIMIT $12"
        );
        assert_eq!(
            render("x {serial}, y {real}", Engine::Postgres),
            "x BIGSERIAL PRIMARY KEY, y DOUBLE PRECISION"
        );
        assert!(matches!(
            render("SELECT 1", Engine::Postgres),
            Cow::Borrowed(_)
        ));
    }
}
