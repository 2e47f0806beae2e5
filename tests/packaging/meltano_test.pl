#!/usr/bin/perl
# The Meltano plugin definition (packaging/meltano/tap-diffgen.yml) is a checked-in file: this
# test holds it to what the tap itself says in `tap-diffgen --about --format json`, and the
# example project (packaging/meltano/meltano.yml) to the definition.
#
#   meltano_test.pl <tap-diffgen> <tap-diffgen.yml> <meltano.yml>
#
# Checked: every setting (each key of an object setting as object.key) and no other, its description, kind (type, secret, choices), default,
# sensitive flag; the required settings; the capabilities (all known to Meltano); name,
# namespace and executable, and no pip_url. Prints one line per failure and a total; exits 1
# when anything disagrees. Needs only perl with YAML::XS and JSON::PP (lintian's dependencies).
use strict;
use warnings;

use JSON::PP ();
use YAML::XS ();

@ARGV == 3 or die "usage: $0 <tap-diffgen> <tap-diffgen.yml> <meltano.yml>\n";
my ($tap, $definition_file, $project_file) = @ARGV;

# YAML's true/false as JSON::PP booleans, so defaults compare with the tap's JSON.
$YAML::XS::Boolean = 'JSON::PP';

# The capabilities Meltano's meltano.yml schema knows for an extractor.
my %meltano_capabilities = map { $_ => 1 } qw(properties catalog discover state about stream-maps
    activate-version batch test log-based schema-flattening structured-logging);
# JSON Schema type of a setting -> Meltano kind (secrets and choices have kinds of their own).
my %kind_of_type = (string => 'string', integer => 'integer', number => 'decimal',
    boolean => 'boolean', array => 'array', object => 'object');

my @failures;
my $checks = 0;

sub check {
    my ($ok, $what) = @_;
    ++$checks;
    push @failures, $what unless $ok;
    return $ok;
}

my $canonical = JSON::PP->new->canonical->allow_nonref;
sub same { return $canonical->encode($_[0]) eq $canonical->encode($_[1]) }
sub show { return defined $_[0] ? $canonical->encode($_[0]) : 'nothing' }

open my $about_pipe, '-|', $tap, '--about', '--format', 'json'
    or die "cannot run $tap: $!\n";
my $about_text = do { local $/; <$about_pipe> };
close $about_pipe or die "$tap --about --format json failed\n";
my $about = JSON::PP->new->decode($about_text);
# Meltano gives each key of an object setting as a setting of its own, named object.key
# (ssh_tunnel.host), and passes them to the tap as one nested object.
my %properties;
for my $name (keys %{ $about->{settings}{properties} }) {
    my $schema = $about->{settings}{properties}{$name};
    if ($schema->{type} eq 'object' && $schema->{properties}) {
        $properties{"$name.$_"} = $schema->{properties}{$_} for keys %{ $schema->{properties} };
    } else {
        $properties{$name} = $schema;
    }
}
my $properties = \%properties;

my $definition = YAML::XS::LoadFile($definition_file);

# ---- the plugin itself ----
check($definition->{name} eq $about->{name}, "name is '$definition->{name}', the tap says '$about->{name}'");
check($definition->{namespace} eq 'tap_diffgen', "namespace is '$definition->{namespace}', not tap_diffgen");
check($definition->{executable} eq 'tap-diffgen', "executable is '$definition->{executable}', not tap-diffgen");
check(!exists $definition->{pip_url}, 'the definition has a pip_url, but the tap is not a Python package');
check(($definition->{description} // '') eq $about->{description},
    "description differs from --about's: '$about->{description}'");

my @capabilities = @{ $definition->{capabilities} // [] };
check(same([sort @capabilities], [sort @{ $about->{capabilities} }]),
    'capabilities ' . show(\@capabilities) . ', --about says ' . show($about->{capabilities}));
for my $capability (@capabilities) {
    check($meltano_capabilities{$capability}, "capability '$capability' is unknown to Meltano");
}

# ---- the settings ----
my %defined;
for my $setting (@{ $definition->{settings} // [] }) {
    my $name = $setting->{name};
    check(!exists $defined{$name}, "setting $name is defined twice");
    $defined{$name} = $setting;
}
for my $name (sort keys %$properties) {
    check(exists $defined{$name}, "setting $name (from --about) is missing");
}
for my $name (sort keys %defined) {
    my $setting = $defined{$name};
    my $schema = $properties->{$name};
    check($schema, "setting $name is not one of the tap's settings") or next;

    check(($setting->{label} // '') ne '', "setting $name has no label");
    check(($setting->{description} // '') eq $schema->{description},
        "setting $name: description differs from --about's: '$schema->{description}'");

    my $secret = $schema->{secret} ? 1 : 0;
    my $sensitive = $setting->{sensitive} ? 1 : 0;
    check($sensitive == $secret,
        "setting $name: sensitive is " . ($sensitive ? 'true' : 'not set') . ', the tap says '
            . ($secret ? 'it is secret' : 'it is not secret'));

    my $kind = $setting->{kind} // 'string';
    my $expected_kind = $secret ? 'password'
        : $schema->{enum} ? 'options'
        : $kind_of_type{ $schema->{type} } // "(no kind for type $schema->{type})";
    check($kind eq $expected_kind, "setting $name: kind $kind, expected $expected_kind for "
            . "type $schema->{type}" . ($secret ? ', secret' : '') . ($schema->{enum} ? ', enum' : ''));

    if ($schema->{enum}) {
        my @values = map { $_->{value} } @{ $setting->{options} // [] };
        check(same(\@values, $schema->{enum}),
            "setting $name: options " . show(\@values) . ', the tap allows ' . show($schema->{enum}));
    } else {
        check(!exists $setting->{options}, "setting $name has options but the tap allows any value");
    }

    check(same($setting->{value}, $schema->{default}),
        "setting $name: value " . show($setting->{value}) . ', the tap\'s default is ' . show($schema->{default}));
}

my @required = sort @{ $about->{settings}{required} // [] };
my @groups = @{ $definition->{settings_group_validation} // [] };
check(@groups == 1 && same([sort @{ $groups[0] }], \@required),
    'settings_group_validation ' . show(\@groups) . ', the required settings are ' . show(\@required));

# ---- the example project ----
my $project = YAML::XS::LoadFile($project_file);
my @extractors = grep { $_->{name} eq 'tap-diffgen' } @{ $project->{plugins}{extractors} // [] };
if (check(@extractors == 1, "$project_file has no extractor tap-diffgen")) {
    my %expected = %$definition;
    delete $expected{variant};
    my %actual = %{ $extractors[0] };
    delete @actual{qw(config select metadata)};
    for my $key (sort keys %{ { %expected, %actual } }) {
        check(same($actual{$key}, $expected{$key}),
            "$project_file: the extractor's $key is not the definition's");
    }
}
my @loaders = grep { $_->{name} eq 'target-jsonl' } @{ $project->{plugins}{loaders} // [] };
check(@loaders == 1, "$project_file has no loader target-jsonl");
my @tasks = map { @{ $_->{tasks} // [] } } @{ $project->{jobs} // [] };
check((grep { $_ eq 'tap-diffgen target-jsonl' } @tasks),
    "$project_file has no job running 'tap-diffgen target-jsonl'");

print "FAIL $_\n" for @failures;
printf "meltano definition: %d checks, %d failed\n", $checks, scalar @failures;
exit(@failures ? 1 : 0);
