#include "DeclaredWords.h"

using namespace Qt::StringLiterals;

namespace posenc::DeclaredWords {

namespace {

thread_local By t_by = By::Declaration;

bool ofTable()
{
    return t_by == By::ReferenceTable;
}

} // namespace

Scope::Scope(By by)
    : m_previous(t_by)
{
    t_by = by;
}

Scope::~Scope()
{
    t_by = m_previous;
}

By current()
{
    return t_by;
}

QString whereGiven()
{
    return ofTable() ? u"where the reference table's reading gives"_s : u"where the declaration gives"_s;
}

QString whereDefault()
{
    return ofTable() ? whereGiven() : u"where the default, not declared, is"_s;
}

QString wasDeclared()
{
    return ofTable() ? u"is the reference table's"_s : u"was declared"_s;
}

QString isDeclared()
{
    return ofTable() ? u"is the reference table's"_s : u"is declared"_s;
}

QString reference()
{
    return ofTable() ? u"the reference table's reading"_s : u"the declared reference"_s;
}

QString referenceOf()
{
    return ofTable() ? u"the reference table's"_s : u"the declared reference's"_s;
}

QString the()
{
    return ofTable() ? u"the reference table's"_s : u"the declared"_s;
}

QString parameters()
{
    return ofTable() ? u"the reference table's parameters"_s : u"the declared parameters"_s;
}

} // namespace posenc::DeclaredWords
