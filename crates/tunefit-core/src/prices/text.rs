//! The sentences of a price list's problems, in English and Russian, from their values. The
//! error's `field` is said once, by `PriceError`; nothing reads a sentence back.

use super::{Expected, JsonKind, PriceProblem, CSV_COLUMNS, MAX_ENTRIES, MAX_GPUS_PER_INSTANCE, MAX_USD_H};
use crate::diag::{json_error, plural_ru, Lang};

fn got_en(k: &JsonKind) -> String {
    match k {
        JsonKind::Null => "null".into(),
        JsonKind::Bool(b) => format!("boolean `{b}`"),
        JsonKind::Num(t) => format!("number `{t}`"),
        JsonKind::Str(s) => format!("string {s}"),
        JsonKind::Seq => "sequence".into(),
        JsonKind::Map => "map".into(),
    }
}

fn expected_en(e: Expected) -> String {
    match e {
        Expected::Struct(name) => format!("struct {name}"),
        Expected::Sequence => "a sequence".into(),
        Expected::Str => "a string".into(),
        Expected::Count => "u32".into(),
        Expected::Price => "f64".into(),
    }
}

fn known_fields(known: &[&str]) -> String {
    known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

/// A problem in English (`PriceError`'s `message`).
pub(super) fn problem_en(p: &PriceProblem) -> String {
    use PriceProblem as P;
    match p {
        P::PriceNotFinite { value } => format!("{value} is not a number"),
        P::PriceNegative { value } => format!("{value} is negative; a price is USD per instance-hour >= 0"),
        P::PriceTooHigh { value } => format!("{value} USD/h is more than {MAX_USD_H}; prices are per instance-hour"),
        P::TooManyEntries => format!("more than {MAX_ENTRIES} entries"),
        P::NameNotId => "expected lower-case letters, digits, '-', '_' or '.' (at most 64)".into(),
        P::CustomNeedsName => "a custom offer needs a name of letters, digits, '-', '_' or '.'".into(),
        P::NameTwice { name } => format!("'{name}' is used twice"),
        P::BillingNotWord { value } => format!("'{value}' is not second|minute|hour"),
        P::BillingNotLetter { value } => format!("'{value}' is not s|m|h"),
        P::KindNotWord { value } => format!("'{value}' is not override|custom"),
        P::ProviderNotId { value } => {
            format!("'{value}' is not an id of lower-case letters, digits, '-', '_' or '.'")
        }
        P::UnknownGpu { id, accepted } => format!("unknown GPU id '{id}'; expected one of {accepted}"),
        P::GpusOutOfRange { count } => format!("{count} is not from 1 to {MAX_GPUS_PER_INSTANCE}"),
        P::NoPrice => "give an on-demand or a spot price (or both)".into(),
        P::NotANumber { value } => format!("'{value}' is not a number"),
        P::NotWholeGpus { value } => format!("'{value}' is not a whole number of GPUs"),
        P::NotWhole { value } => format!("'{value}' is not a whole number"),
        P::CompactShape => {
            "expected o:provider:gpu:count:on_demand:spot or c:name:provider:gpu:count:on_demand:spot:billing".into()
        }
        P::UnknownColumn => format!("unknown column; expected {}", CSV_COLUMNS.join(",")),
        P::ColumnMissing => "column missing from the header".into(),
        P::FieldCount { got, header } => format!("{got} fields, the header has {header}"),
        P::Json(e) => e.to_string(),
        P::DuplicateField { key, line } => format!("duplicate field `{key}` at line {line}"),
        P::UnknownTopField { key, line } => {
            format!("unknown field `{key}`, expected `overrides` or `custom_offers` at line {line}")
        }
        P::UnknownField { key, known, line } => {
            format!("unknown field `{key}`, expected one of {} at line {line}", known_fields(known))
        }
        P::MissingField { key, line } => format!("missing field `{key}` at line {line}"),
        P::InvalidType { got, expected, line } => format!(
            "invalid type: {}, expected {}{}",
            got_en(got),
            expected_en(*expected),
            line.map(|l| format!(" at line {l}")).unwrap_or_default()
        ),
    }
}

fn got_ru(k: &JsonKind) -> String {
    match k {
        JsonKind::Null => "null".into(),
        JsonKind::Bool(b) => format!("логическое значение `{b}`"),
        JsonKind::Num(t) => format!("число `{t}`"),
        JsonKind::Str(s) => format!("строка {s}"),
        JsonKind::Seq => "массив".into(),
        JsonKind::Map => "объект".into(),
    }
}

fn expected_ru(e: Expected) -> String {
    match e {
        Expected::Struct(name) => format!("объект {name}"),
        Expected::Sequence => "массив".into(),
        Expected::Str => "строка".into(),
        Expected::Count => "целое число (u32)".into(),
        Expected::Price => "число (f64)".into(),
    }
}

/// A price with the decimal comma, as the Russian page writes numbers.
fn price_ru(x: f64) -> String {
    format!("{x}").replace('.', ",")
}

/// `(строка 3)`: where in the JSON text.
fn at_line_ru(line: usize) -> String {
    format!(" (строка {line})")
}

/// A problem in Russian.
pub(super) fn problem_ru(p: &PriceProblem) -> String {
    use PriceProblem as P;
    match p {
        P::PriceNotFinite { value } => format!("{value} — не число"),
        P::PriceNegative { value } => {
            format!("{} — отрицательная цена; цена — это USD за час работы инстанса, не меньше 0", price_ru(*value))
        }
        P::PriceTooHigh { value } => {
            format!("{} USD/ч — больше {MAX_USD_H}; цены указываются за час работы инстанса", price_ru(*value))
        }
        P::TooManyEntries => format!("больше {MAX_ENTRIES} записей"),
        P::NameNotId => "нужны строчные латинские буквы, цифры, «-», «_» или «.» (не больше 64 символов)".into(),
        P::CustomNeedsName => "своему предложению нужно имя из латинских букв, цифр, «-», «_» или «.»".into(),
        P::NameTwice { name } => format!("«{name}» встречается дважды"),
        P::BillingNotWord { value } => format!("«{value}» — не одно из значений second|minute|hour"),
        P::BillingNotLetter { value } => format!("«{value}» — не одно из значений s|m|h"),
        P::KindNotWord { value } => format!("«{value}» — не одно из значений override|custom"),
        P::ProviderNotId { value } => {
            format!("«{value}» — не идентификатор из строчных латинских букв, цифр, «-», «_» или «.»")
        }
        P::UnknownGpu { id, accepted } => format!("неизвестный GPU «{id}»; допустимые: {accepted}"),
        P::GpusOutOfRange { count } => format!("{count} — вне диапазона от 1 до {MAX_GPUS_PER_INSTANCE}"),
        P::NoPrice => "укажите цену по требованию или spot-цену (или обе)".into(),
        P::NotANumber { value } => format!("«{value}» — не число"),
        P::NotWholeGpus { value } => format!("«{value}» — не целое число GPU"),
        P::NotWhole { value } => format!("«{value}» — не целое число"),
        P::CompactShape => {
            "нужно o:provider:gpu:count:on_demand:spot или c:name:provider:gpu:count:on_demand:spot:billing".into()
        }
        P::UnknownColumn => format!("неизвестный столбец; допустимые: {}", CSV_COLUMNS.join(",")),
        P::ColumnMissing => "этого столбца нет в заголовке".into(),
        P::FieldCount { got, header } => {
            format!("{got} {}, а в заголовке {header}", plural_ru(*got as u64, "поле", "поля", "полей"))
        }
        P::Json(e) => json_error(e, Lang::Ru),
        P::DuplicateField { key, line } => format!("поле `{key}` повторяется{}", at_line_ru(*line)),
        P::UnknownTopField { key, line } => {
            format!("неизвестное поле `{key}`; допустимы `overrides` и `custom_offers`{}", at_line_ru(*line))
        }
        P::UnknownField { key, known, line } => {
            format!("неизвестное поле `{key}`; допустимые: {}{}", known_fields(known), at_line_ru(*line))
        }
        P::MissingField { key, line } => format!("нет обязательного поля `{key}`{}", at_line_ru(*line)),
        P::InvalidType { got, expected, line } => format!(
            "неверный тип: {}; ожидалось: {}{}",
            got_ru(got),
            expected_ru(*expected),
            line.map(at_line_ru).unwrap_or_default()
        ),
    }
}
