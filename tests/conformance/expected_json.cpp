#include "expected_json.hpp"

#include <Poco/JSON/Stringifier.h>

#include <sstream>

#include "case_result.hpp"

namespace tapdiffgen::conformance {
namespace {

std::string compact(const Poco::Dynamic::Var& value) {
    if (value.isString()) return "\"" + value.toString() + "\"";
    std::ostringstream out;
    Poco::JSON::Stringifier::condense(value, out);
    return out.str();
}

bool sameValue(const Poco::Dynamic::Var& a, const Poco::Dynamic::Var& b) {
    if (a.isNumeric() && b.isNumeric() && !a.isBoolean() && !b.isBoolean()) {
        return a.convert<double>() == b.convert<double>();
    }
    return compact(a) == compact(b);
}

}  // namespace

std::string textOf(const Poco::JSON::Object::Ptr& object, const std::string& key) {
    require(object->has(key) && !object->isNull(key), "expected.json: '" + key + "' is missing");
    return object->get(key).toString();
}

int64_t integerOf(const Poco::JSON::Object::Ptr& object, const std::string& key) {
    require(object->has(key) && object->get(key).isInteger(),
            "expected.json: '" + key + "' must be an integer");
    return object->get(key).convert<int64_t>();
}

Poco::JSON::Array::Ptr arrayOf(const Poco::JSON::Object::Ptr& object, const std::string& key) {
    Poco::JSON::Array::Ptr array = object->getArray(key);
    require(!array.isNull(), "expected.json: '" + key + "' must be an array");
    return array;
}

std::vector<std::string> stringsOf(const Poco::JSON::Array::Ptr& array) {
    std::vector<std::string> items;
    for (size_t i = 0; i < array->size(); ++i)
        items.push_back(array->get(static_cast<unsigned>(i)).toString());
    return items;
}

std::vector<Poco::JSON::Object::Ptr> objectsOf(const Poco::JSON::Array::Ptr& array) {
    std::vector<Poco::JSON::Object::Ptr> items;
    for (size_t i = 0; i < array->size(); ++i) {
        Poco::JSON::Object::Ptr item = array->getObject(static_cast<unsigned>(i));
        require(!item.isNull(), "expected.json: an array holds a non-object");
        items.push_back(item);
    }
    return items;
}

bool containsSchema(const Poco::JSON::Object::Ptr& actual, const Poco::JSON::Object::Ptr& expected,
                    std::string& difference) {
    for (const auto& [key, value] : *expected) {
        if (!actual->has(key)) {
            difference = "no \"" + key + "\" (expected " + compact(value) + ")";
            return false;
        }
        if (!sameValue(actual->get(key), value)) {
            difference =
                "\"" + key + "\" is " + compact(actual->get(key)) + ", expected " + compact(value);
            return false;
        }
    }
    return true;
}

}  // namespace tapdiffgen::conformance
