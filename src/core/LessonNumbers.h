#pragma once

#include "LessonModel.h"
#include "Params.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace posenc {

// The numbers a lesson's explanation quotes, for the model it is read for: each a closed form of
// the parameters (docs/ARCHITECTURE.md, The mathematics) but special_dropped, a count of the
// seed's mask; cheap enough to follow every move of a control on the GUI thread (O(1), or O(d)
// for a sum over the frequencies or the mask of a few rows). The explanation names them as
// {key}: "s·E is {ratio} times the PE".
//
// A number is typed: a quantity with its words, a word (a model's name, a scaling's), or missing
// with the reason. A missing number has no text: a fragment that names it cannot be shown, and the
// lesson shows the fragment's next alternative instead (LessonText), so that no reason and no
// number of another model ever stands in a sentence.
namespace LessonNumbers {

struct Number
{
    std::optional<double> value; // the quantity, where the number is one
    QString text; // its words as the explanation shows them; empty where it is missing
    QString missing; // why there is no such number for this model; empty where there is one
    bool properName = false; // a model's name, which keeps its letters at the start of a sentence

    bool present() const { return missing.isEmpty(); }
};

// A number the lessons quote: its key, what it stands for, and its value for the model. The
// shared ones are SharedLessonNumbers.cpp's, each family's in its folder (FamilySpec::lessonNumbers),
// a model's layers' in check/models/LayerLessonNumbers.
struct Entry
{
    Entry(QString key, QString description, std::function<Number(const LessonModel &)> value, QString figure = {});
    // A number of the parameters alone.
    Entry(QString key, QString description, std::function<Number(const Params &)> value, QString figure = {});

    QString key;
    QString description;
    std::function<Number(const LessonModel &)> value;
    // The figure that draws this number, where one does ("position-effect", or with the panel's words
    // "position-effect: the difference"): a slide that quotes it draws it too (Lesson::slideFigures).
    QString figure;
};

// The words of a number: a real in prose, an integer with a true minus sign and its thousands
// grouped ("229,376", as every whole number a lesson states), a count of cells
// (whole below 10^7), a word or phrase, or missing and why.
Number real(double v);
// `v` as real() gives it, in the digits that tell it from `other`, the value a sentence sets it
// against (NumberText::digitsApart): both of a pair take it, each with the other.
Number realApart(double v, double other);
Number integer(std::int64_t v);
Number count(double v);
// A factor in enough digits to tell it from 1 ("1.4812"), and a length in positions, whole and
// grouped ("40,947,128").
Number factor(double v);
Number positions(double v);
Number word(const QString &text);
Number properName(const QString &text);
// The named model as a sentence names it within: "Llama 3.1 8B", "the TensorFlow Transformer
// tutorial" (LessonModel::article), "the Annotated Transformer" (a title's "The" is the article);
// and as a number, a proper name or, with its article, a word a sentence's start capitalises.
// `model` must be named.
QString nameWithin(const LessonModel &model);
Number nameOf(const LessonModel &model);
// The model's own `family` as a sentence names it: the model alone where its name says the family
// ("T5-base", "Flan-T5-base", "DeBERTa-v3-base"), else its name's possessive and the family
// ("Llama 3.1 8B's RoPE", "this model's T5"), so that no name is followed by the family it contains.
Number modelsFamily(const LessonModel &model, const QString &family);
// A family's heading beside the model's name: without its first word, the family's own name, where
// the model's name says it ("relative buckets" beside T5-base, "T5 relative buckets" beside others).
QString familyBeside(const LessonModel &model, const QString &heading);
Number none(const QString &why);
// A condition a fragment can need ({"needs": ["key"]}): present, with no words, where `holds`.
Number condition(bool holds, const QString &whyNot);
// Whether `params` are valid with `family` chosen: a family's numbers read its group whatever the
// encoding is.
bool validUnder(const Params &params, Encoding family);

// Whether the model's queries see the keys after them too: its family's parameters where they say
// (T5's encoder map, DeBERTa, ALiBi's symmetric mask), else its params.batch.attention
// (BatchLayout::attendsBothWays). Every lesson that depends on the mask asks this.
bool attendsBothWays(const LessonModel &model);

// `more`, in each function below: numbers of a layer above core, looked up after core's (a model's
// layers, which posenc check reads: check/models/LayerLessonNumbers).

// Every key, in the order of their descriptions.
QStringList keys(const QList<Entry> &more = {});
// What a key stands for, in a line ("1/(1 − p): the factor of the kept cells").
QString describe(const QString &key, const QList<Entry> &more = {});
// The figure ("figure: panel words") that draws `key`'s number ({Model} as model); empty: none.
QString figureOf(const QString &key, const QList<Entry> &more = {});
// The number of `key` for `model`; nothing for a key that is not one. A key written with a
// capital first letter ({Model}) is its key's number with the first letter of its words capital,
// for the start of a sentence.
std::optional<Number> number(const QString &key, const LessonModel &model, const QList<Entry> &more = {});
std::optional<Number> number(const QString &key, const Params &params);

// A fragment of text with each {key} replaced by its number's words (wrapped in <b></b> when
// `emphasise` and the number is a quantity).
struct Filled
{
    QString text; // complete only when `missing` and `unknown` are empty
    QStringList missing; // the keys named whose numbers this model lacks
    QStringList unknown; // the {word}s that are no key
    QStringList keys; // every key named, in order, each once

    bool complete() const { return missing.isEmpty() && unknown.isEmpty(); }
};
Filled fill(const QString &text, const LessonModel &model, bool emphasise = false, const QList<Entry> &more = {});
// The keys `text` names, in order, each once ({Model} as model).
QStringList keysIn(const QString &text, const QList<Entry> &more = {});

} // namespace LessonNumbers

} // namespace posenc
