#pragma once

#include "Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

// The parameters as one table (docs/ARCHITECTURE.md, "The parameter table"): each row is one
// parameter, and everything that reads, writes, checks, documents or shows a parameter takes it
// from its row: the command line's flags and --help, sessions and presets (ParamText), the
// checks of Params::validate(), the window's controls with their labels, tooltips and disabled
// states.
namespace posenc {

// Where a parameter belongs: the groups every encoding has, and a family's group (the row's
// `family` says which), shown only while the family is chosen.
enum class ParamGroup { Model, Family, Embeddings, Dropout, Batch, Run };

// What a value is, which decides its text and the control the window gives it.
enum class ParamKind {
    Integer, // N: a spin box
    Unsigned, // N up to 2^64 - 1: a spin box (the seed)
    OptionalInteger, // N|auto: a spin box whose lowest value reads "auto" (or the row's unsetText)
    Number, // a number: a text field
    OptionalNumber, // a number or unset, as a config that leaves the key out: a text field, empty when unset
    NumberList, // finite positive numbers such as 1,1.5,2, or none: a text field
    Probability, // a number in [0, 1]: a spin box with a slider
    Choice, // one of `choices`: a chooser
    ChoiceOrNumber, // one of `choices` or a number: a chooser whose last entry is a number field
    Switch, // true|false: a check box
    IndexList, // positions such as 0,-1 or 0:4, or none: a text field
    Text, // a text the row's parse and check read (a prompt): a text field
    Matrix, // FILE[:TENSOR], read by the command line or the window (not by ParamText)
};

// How a spin box's slider moves, where it has one.
enum class SliderScale { None, Linear, Log2 };

// A matrix held by the parameters, compared by identity.
struct MatrixValue
{
    std::shared_ptr<const void> identity;
    QString source;

    friend bool operator==(const MatrixValue &a, const MatrixValue &b) { return a.identity == b.identity; }
};

// A parameter's value, typed: what the window's controls give and take without text.
// std::monostate stands for "auto" or "unset" (an OptionalInteger or OptionalNumber left to its
// default) and for no matrix.
using ParamValue = std::variant<std::monostate, std::int64_t, std::uint64_t, double, bool, QString,
                                std::vector<std::int64_t>, std::vector<double>, MatrixValue>;

// Why the current settings ignore a parameter: the reason as a value (tests compare it) and in
// words (the window's tooltip).
struct IdleReason
{
    // Every reason any row gives.
    enum class Code {
        SetByMatrix, // d-model: a loaded matrix's columns fix it
        EmbeddingsFromFile, // init, custom-sigma: the rows of a loaded matrix replace the random init
        NoEmbeddingColumns, // scale, init and their custom values: concat with pe-dims = d-model
        NoPeColumns, // the family's parameters: concat with pe-dims 0
        NotCustomScale, // custom-scale: the scale is 1 or sqrt(d)
        NotCustomInit, // custom-sigma: the init is normal or scaled-normal
        NotConcat, // pe-dims: compose is sum
        EvaluationMode, // dropout, special, seq-len: evaluation mode drops nothing
        NothingDropped, // special, seq-len: p = 0 drops nothing, so nothing needs protecting
        NotProtectSpecial, // special: only protect-special reads it
        NoRowsToResolve, // seq-len: neither masked-fill's padding nor a special position counted from the end
        NothingRandom, // seed: embeddings from a file and no mask drawn
        OtherEncoding, // a family's parameter while another family is chosen
        NoPositionTerm, // compose, pe-dims: the encoding adds no position term
        OtherRopeType, // a RoPE parameter that the chosen rope-type does not read
        OtherFactorList, // short-factor, long-factor: longrope reads the other list at this max-len
        ExplicitAttentionFactor, // mscale; longrope's rope-factor: attention-factor is given and used as it is
        NoMscaleAllDim, // mscale: yarn reads it only beside a non-zero mscale-all-dim
        // A family's parameter that the family's other settings leave unread, its family's words saying
        // which (the family's folder: M-RoPE's vision rule, 2-D RoPE's style, the 2-D sin-cos base size).
        FamilySetting,
        NoTemperature, // floor-scale: attn-scale is unset, so no temperature is applied
    };
    Code code;
    QString why; // "evaluation mode (eval) drops nothing."
};

struct ParamSpec
{
    QString key; // the flag without its dashes, the session's key: "d-model"
    ParamGroup group = ParamGroup::Model;
    std::optional<Encoding> family; // the family of a row of ParamGroup::Family (ParamTable sets it)
    // A model's own setting outside its family's rows (Llama 4's attn_scale): presets set it, and a
    // lesson read for another model leaves it at its default, as a family's (LessonModels::textsFor).
    bool ofModel = false;
    ParamKind kind = ParamKind::Integer;
    QString valueName; // --help's placeholder: "N", "interleaved|split"
    QString help; // --help's line, without the default
    QString label; // the window's name: "d_model"
    QString objectName; // the stem of its controls' object names: "dModel" (dModelSpin, dModelLabel)
    QStringList choices; // Choice, ChoiceOrNumber: the words, in the chooser's order
    QStringList choiceLabels; // what the chooser shows for each word, when it differs from it
    QString customLabel; // ChoiceOrNumber: the chooser's entry for a number ("custom σ")
    QString controlText; // a switch's check box text, a matrix's button
    // The text of an optional value left unset (OptionalInteger, OptionalNumber): "auto" where
    // the program works the value out (pe-dims, seq-len), "unset" where a config leaves it out.
    QString unsetText = QStringLiteral("auto");
    // The values an integer control can hold: wider than the allowed range where a value outside
    // it can be typed and refused with its reason (d_model 0), and its lowest value "auto" for an
    // OptionalInteger.
    std::int64_t controlMin = 0;
    std::int64_t controlMax = 0;
    SliderScale slider = SliderScale::None;
    std::int64_t sliderMax = 0; // Linear: the slider's top value; Log2: 2^(top / 10)
    // A flag and a session key. The window's sub-values (a custom scale's number) are not: they
    // name the flag that carries them.
    bool isFlag = true;
    QString parentKey;
    // Shown in --help with its default: false where the default is a state, not a value.
    bool helpShowsDefault = true;

    // The value in `params`, and `params` with it set (a value of another type is not taken).
    std::function<ParamValue(const Params &)> value;
    std::function<void(Params &, const ParamValue &)> assign;
    // ChoiceOrNumber: sets the number as the custom choice, whatever number it is (a custom scale
    // of 1 stays custom in the window, where its field is open for the next number).
    std::function<void(Params &, double)> assignCustom;
    // Reads a value from its text, or nothing when the text is not of the kind's syntax.
    std::function<std::optional<ParamValue>(const QString &)> parse;
    // The allowed values in words, for these parameters: "an integer in [1, 1048576]".
    std::function<QString(const Params &)> allowed;
    // The bounds a control may take, for these parameters (Integer, OptionalInteger, Probability).
    std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds;
    // The problem with the value in `params`, or nothing when it is valid.
    std::function<std::optional<ParamError>(const Params &)> check;
    // Why `params` ignore the parameter, or nothing when it can change what is computed.
    std::function<std::optional<IdleReason>(const Params &)> idle;
    // The formula the parameter enters, with the numbers of `params` (the window's tooltip, HTML).
    std::function<QString(const Params &)> formula;

    // The value's text, which parse() reads back to the same value.
    QString text(const Params &params) const;
    QString text(const ParamValue &value) const;
    // The --help line: the help and the default.
    QString helpLine() const;
    // The flag as the command line takes it: "--d-model N", "--eval", "--scale NUMBER".
    QString flag() const;
};

namespace ParamTable {

// Every parameter, in the order of --help and of the window's controls.
const QList<ParamSpec> &rows();
// The row of `key`, or nullptr.
const ParamSpec *find(const QString &key);
// The keys of the rows that are flags (and session keys), in order; without the matrices when
// `withMatrices` is false.
QStringList flagKeys(bool withMatrices = true);
// The keys whose values differ between `a` and `b`, compared as values.
QStringList changedKeys(const Params &a, const Params &b);

// "0,5,-1" or "3:7" (half-open) or a mix: "0,10:12". Used for special positions, dims and
// tokens. A list of more than `maxCount` values is refused before it is built, so that a typed
// range such as 0:99999999999 cannot exhaust memory.
constexpr std::int64_t kMaxIndexListLength = std::int64_t(1) << 24;
std::optional<std::vector<std::int64_t>> parseIndexList(const QString &text,
                                                        std::int64_t maxCount = kMaxIndexListLength);
// "A:B", half-open, both required.
std::optional<std::pair<std::int64_t, std::int64_t>> parseRange(const QString &text);
// A finite double, written the C way ("1e-3", "10000"); rejects "nan", "inf" and trailing text.
std::optional<double> parseFinite(const QString &text);

} // namespace ParamTable

// Helpers that build the common kinds of row, so that a range is written once.
namespace ParamRows {

// --help's lines hold this many characters after their indent of six.
constexpr qsizetype kHelpWidth = 93;
// `text` in lines of at most kHelpWidth characters, broken between words, as --help indents them.
QString wrapHelp(const QString &text);

// "an integer in [lo, hi]", the bounds from `bounds`, with `note` after them (" (d_model)").
QString integerRange(std::int64_t lo, std::int64_t hi, const QString &note = {});

// An integer field of Params within [lo(params), hi(params)].
ParamSpec integer(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                  std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note = {});
// The same with a note that words the live values the bounds follow ("more than t5-buckets / 2 = 16").
ParamSpec integer(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                  std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds,
                  std::function<QString(const Params &)> note);
// An integer that must be even where `even` says so (a count the reference halves), refused then with
// `whyEven`: "an even integer in [lo, hi]" and `evenNote`, else the range and `note`.
ParamSpec evenInteger(QString key, ParamGroup group, std::function<std::int64_t &(Params &)> field,
                      std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds,
                      std::function<bool(const Params &)> even, QString evenNote, QString note, QString whyEven);
// A choice among `words`, stored as an enum whose values are the words' indexes.
template<typename Enum> ParamSpec choice(QString key, ParamGroup group, Enum Params::*member, QStringList words);
template<typename Enum, typename Group>
ParamSpec choice(QString key, ParamGroup group, Group Params::*groupMember, Enum Group::*member, QStringList words);

// A number field that is unset until given (a config's optional key): text "unset" or empty.
// The row's allowed words and check are the caller's.
ParamSpec optionalNumber(QString key, ParamGroup group, std::function<std::optional<double> &(Params &)> field);
// A list of at most `maxCount` finite positive numbers, "none" or empty for no value. The row's
// check is the caller's.
ParamSpec numberList(QString key, ParamGroup group, std::function<std::vector<double> &(Params &)> field,
                     std::int64_t maxCount);
// Reads "1,1.5,2" (each finite and > 0, at most `maxCount` of them), or "none" and "" as no value.
std::optional<std::vector<double>> parseNumberList(const QString &text, std::int64_t maxCount);

// A choice row over an enum reached by `field`.
ParamSpec choiceOf(QString key, ParamGroup group, std::function<int(const Params &)> get,
                   std::function<void(Params &, int)> set, QStringList words);

// A number field that takes any number, NaN and infinities included, so that the row's check
// refuses them with its range.
ParamSpec numberRow(QString key, ParamGroup group, std::function<double &(Params &)> field);
// A true|false switch over a bool field ("true", "1", "yes" / "false", "0", "no"); the row's help,
// label, control text, idle and formula are the caller's.
ParamSpec switchRow(QString key, ParamGroup group, std::function<bool &(Params &)> field);
// An integer that may be left to "auto" (std::monostate) within [lo(params), hi(params)].
ParamSpec optionalInteger(QString key, ParamGroup group, std::function<std::optional<std::int64_t> &(Params &)> field,
                          std::function<std::pair<std::int64_t, std::int64_t>(const Params &)> bounds, QString note);
// A matrix read from FILE[:TENSOR] by the command line or the window; its value is the caller's.
ParamSpec matrixRow(QString key, ParamGroup group, QString valueName, QString help);
// An integer, or any double (NaN and infinities included), read from text; nothing otherwise.
std::optional<std::int64_t> parseInteger(const QString &text);
std::optional<double> parseNumber(const QString &text);

// The idle reason of a family's parameter under another encoding, or nothing.
std::optional<IdleReason> otherEncoding(const Params &params, Encoding family);
// A family's rows' idle: otherEncoding of `family`.
std::function<std::optional<IdleReason>(const Params &)> familyIdle(Encoding family);

} // namespace ParamRows

template<typename Enum>
ParamSpec ParamRows::choice(QString key, ParamGroup group, Enum Params::*member, QStringList words)
{
    return choiceOf(
        std::move(key), group, [member](const Params &p) { return static_cast<int>(p.*member); },
        [member](Params &p, int i) { p.*member = static_cast<Enum>(i); }, std::move(words));
}

template<typename Enum, typename Group>
ParamSpec ParamRows::choice(QString key, ParamGroup group, Group Params::*groupMember, Enum Group::*member,
                            QStringList words)
{
    return choiceOf(
        std::move(key), group,
        [groupMember, member](const Params &p) { return static_cast<int>(p.*groupMember.*member); },
        [groupMember, member](Params &p, int i) { p.*groupMember.*member = static_cast<Enum>(i); }, std::move(words));
}

} // namespace posenc
