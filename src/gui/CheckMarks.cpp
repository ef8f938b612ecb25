#include "CheckMarks.h"

using namespace Qt::StringLiterals;

namespace posenc::CheckMarks {

namespace {

// Red for a mistake and for an error finding alike.
const QColor kWrong(180, 30, 30);

} // namespace

QString verdictSymbol(CheckVerdict verdict)
{
    switch (verdict) {
    case CheckVerdict::Correct:
        return u"\u2714"_s; // heavy check mark
    case CheckVerdict::Mistake:
        return u"\u2716"_s; // heavy multiplication x
    case CheckVerdict::Variant:
        return u"\u2248"_s; // almost equal to
    case CheckVerdict::Learned:
        return u"\u223F"_s; // sine wave
    case CheckVerdict::Unknown:
        break;
    }
    return u"?"_s;
}

QColor verdictColour(CheckVerdict verdict)
{
    switch (verdict) {
    case CheckVerdict::Correct:
        return {0, 110, 50};
    case CheckVerdict::Mistake:
        return kWrong;
    case CheckVerdict::Variant:
    case CheckVerdict::Learned:
        return {150, 95, 0};
    case CheckVerdict::Unknown:
        break;
    }
    return {90, 90, 90};
}

QString severityMark(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return u"\u2716 error"_s; // heavy multiplication x
    case Severity::Warning:
        return u"\u26A0 warning"_s; // warning sign
    case Severity::Note:
        break;
    }
    return u"\u2139 note"_s; // information source
}

QColor severityColour(Severity severity)
{
    switch (severity) {
    case Severity::Error:
        return kWrong;
    case Severity::Warning:
        return {150, 95, 0};
    case Severity::Note:
        break;
    }
    return {30, 80, 150};
}

} // namespace posenc::CheckMarks
