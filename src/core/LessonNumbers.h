#pragma once

#include "Params.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace posenc {

// The numbers a lesson's explanation quotes, for the current parameters: each a closed form of
// the parameters (docs/ARCHITECTURE.md, The mathematics) but special_dropped, a count of the
// seed's mask; cheap enough to follow every move of a control on the GUI thread (O(1), or O(d)
// for a sum over the frequencies or the mask of a few rows). The explanation names them as
// {key}: "s·E is {ratio} times the PE".
namespace LessonNumbers {

struct Number
{
    std::optional<double> value; // none where the closed form does not apply (p = 1, a loaded matrix)
    QString text; // the value as the explanation shows it, or why there is none
};

// A number the lessons quote: its key, what it stands for, and its value for the parameters. The
// shared ones are LessonNumbers.cpp's, each family's in its folder (FamilySpec::lessonNumbers).
struct Entry
{
    QString key;
    QString description;
    std::function<Number(const Params &)> value;
};

// The words of a number: a real in prose, an integer with a true minus sign, a count of cells
// (whole below 10^7), or none and why.
Number real(double v);
Number integer(std::int64_t v);
Number count(double v);
Number none(const QString &why);
// Whether `params` are valid with `family` chosen: a family's numbers read its group whatever the
// encoding is.
bool validUnder(const Params &params, Encoding family);

// Every key, in the order of their descriptions.
QStringList keys();
// What a key stands for, in a line ("1/(1 − p): the factor of the kept cells").
QString describe(const QString &key);
// The number of `key` for `params`; nothing for a key that is not one.
// `more`: numbers of a layer above core, looked up after core's (the example models' layers, which
// posenc check reads: check/models/ModelLessonNumbers).
std::optional<Number> number(const QString &key, const Params &params, const QList<Entry> &more = {});

// `text` with each {key} replaced by its number's text (wrapped in <b></b> when `emphasise`);
// a {word} that is not a key stays as it is and is listed in `unknown`.
QString fill(const QString &text, const Params &params, bool emphasise = false, QStringList *unknown = nullptr,
             const QList<Entry> &more = {});

} // namespace LessonNumbers

} // namespace posenc
